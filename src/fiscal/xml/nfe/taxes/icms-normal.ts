import { el, leaf } from '../../xml-text.js';
import { money, rate } from '../format.js';
import type { IcmsModel, OwnIcmsModel, StModel } from '../model.js';
import { fcpWithBase, ownIcms, retainedBlock, stBlock } from './icms-blocks.js';
import { icmsPartXml, icmsStXml } from './icms-interstate.js';
import { icms02, icms15, icms53, icms61 } from './icms-mono.js';

// ICMS groups of regime-normal issuers (CRT 3), one writer per CST, fields in XSD order.
// CST 50 and 51 are NF-e only: NFC-e rejects them (cStat 766/740, docs/fiscal/nfce-rules.md) and validateSale refuses them.

function need<T>(value: T | undefined, what: string, cst: string): T {
  if (value === undefined) throw new Error(`ICMS CST ${cst} needs ${what} (validateSale should have caught this)`);
  return value;
}

const head = (m: IcmsModel): string => leaf('orig', m.orig) + leaf('CST', m.code);
/**
 * vICMSDeson, motDesICMS, indDeduzDeson (model 55 relief). indDeduzDeson (NT 2023.004, in PL_009
 * and PL_010 right after motDesICMS of ICMS20/30/40/70/90) says whether vNF is reduced by the
 * relief: the MOC W16-10 sum deducts vICMSDeson only with indDeduzDeson 1 (docs/fiscal/icms-relief.md).
 */
const relief = (m: IcmsModel): string =>
  m.relief ? money('vICMSDeson', m.relief.vICMSDeson) + leaf('motDesICMS', m.relief.motDesICMS) + leaf('indDeduzDeson', m.relief.indDeduzDeson) : '';

function icms00(m: IcmsModel): string {
  const own = need(m.own, 'own ICMS', '00');
  // ICMS00 carries pFCP/vFCP only (no vBCFCP): the FCP base is the ICMS base.
  const fcp = own.fcp ? rate('pFCP', own.fcp.pFCP) + money('vFCP', own.fcp.vFCP) : '';
  return head(m) + ownIcms(own, false) + fcp;
}

function icms10(m: IcmsModel): string {
  const own = need(m.own, 'own ICMS', '10');
  return head(m) + ownIcms(own, false) + fcpWithBase(own) + stBlock(need(m.st, 'ST', '10'));
}

function icms20(m: IcmsModel): string {
  const own = need(m.own, 'own ICMS', '20');
  return head(m) + ownIcms(own, true) + fcpWithBase(own) + relief(m);
}

function icms30(m: IcmsModel): string {
  return head(m) + stBlock(need(m.st, 'ST', '30')) + relief(m);
}

function icms40(m: IcmsModel): string {
  return head(m) + relief(m);
}

/** ICMS51 (model 55 only): every field but orig/CST is optional; with own ICMS, the deferral. */
function icms51(m: IcmsModel): string {
  const own = m.own;
  if (!own) return head(m);
  const d = m.deferral;
  return (
    head(m) +
    leaf('modBC', own.modBC) +
    (own.pRedBC ? rate('pRedBC', own.pRedBC) : '') +
    money('vBC', own.vBC) +
    rate('pICMS', own.pICMS) +
    (d ? money('vICMSOp', d.vICMSOp) + rate('pDif', d.pDif) + money('vICMSDif', d.vICMSDif) : '') +
    money('vICMS', own.vICMS)
  );
}

function icms60(m: IcmsModel): string {
  return head(m) + retainedBlock(m.retained);
}

function icms70(m: IcmsModel): string {
  const own = need(m.own, 'own ICMS', '70');
  return head(m) + ownIcms(own, true) + fcpWithBase(own) + stBlock(need(m.st, 'ST', '70')) + relief(m);
}

/** ICMS90 order differs: modBC, vBC, [pRedBC], pICMS, vICMS. */
export function icms90Own(own: OwnIcmsModel | undefined): string {
  if (!own) return '';
  return (
    leaf('modBC', own.modBC) +
    money('vBC', own.vBC) +
    (own.pRedBC ? rate('pRedBC', own.pRedBC) : '') +
    rate('pICMS', own.pICMS) +
    money('vICMS', own.vICMS)
  );
}

function icms90(m: IcmsModel): string {
  const st: StModel | undefined = m.st;
  return head(m) + icms90Own(m.own) + (m.own ? fcpWithBase(m.own) : '') + (st ? stBlock(st) : '') + relief(m);
}

const WRITERS: Record<string, [string, (m: IcmsModel) => string]> = {
  '00': ['ICMS00', icms00],
  // Monophase ICMS on fuels (NT 2023.001): icms-mono.ts.
  '02': ['ICMS02', icms02],
  '15': ['ICMS15', icms15],
  '53': ['ICMS53', icms53],
  '61': ['ICMS61', icms61],
  '10': ['ICMS10', icms10],
  '20': ['ICMS20', icms20],
  '30': ['ICMS30', icms30],
  '40': ['ICMS40', icms40],
  '41': ['ICMS40', icms40],
  // 50 (suspension) and 51 (deferral) exist for model 55 only; the NFC-e domain never sends them.
  '50': ['ICMS40', icms40],
  '51': ['ICMS51', icms51],
  '60': ['ICMS60', icms60],
  '70': ['ICMS70', icms70],
  '90': ['ICMS90', icms90],
};

export const NORMAL_CSTS: readonly string[] = Object.keys(WRITERS);

export function icmsNormalXml(m: IcmsModel): string {
  // Model 55 only: the interstate split (ICMSPart, CST 10/90) and the repasse of ST retained earlier (ICMSST, CST 41/60).
  if (m.partilha) return el('ICMSPart', icmsPartXml(m));
  if (m.repasse) return el('ICMSST', icmsStXml(m));
  const writer = WRITERS[m.code];
  if (!writer) throw new Error(`ICMS CST ${m.code} has no NFC-e group`);
  return el(writer[0], writer[1](m));
}
