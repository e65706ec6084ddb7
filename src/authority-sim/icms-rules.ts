import { mocRule } from '../fiscal/rules/rule-table.js';
import { sliceAll, sliceElement, type ElementSlice } from '../fiscal/sefaz/xml-slice.js';
import type { NfeFacts } from './nfe-facts.js';
import { cbenefRejection } from './cbenef-rules.js';
import { monoRejection } from './icms-mono-rules.js';
import type { ContentContext, Rejection } from './nfe-rules.js';

// MOC 7.0 Anexo I rules on ICMS of each item (N), written from the rule text
// (assets/fiscal/rules/moc-anexo-i.json), independently of the gateway's own checks.
// webservices/cstat.json has older words for 766 and lacks "Rejeição:" for 381-386: the messages
// are the rule rows', with the item number in the bracket.

const el = (within: ElementSlice | null, name: string) => (within ? sliceElement(within.inner, name) : null);
const textIn = (within: ElementSlice | null, name: string) => el(within, name)?.inner ?? '';

const MESSAGES: Record<number, string> = {
  766: 'Rejeição: Item com CST indevido',
  383: 'Rejeição: Item com CSOSN indevido',
  381: 'Rejeição: Grupo de tributação ICMS90, informando dados do ICMS-ST',
  385: 'Rejeição: Grupo de tributação ICMSSN900, informando dados do ICMS-ST',
  382: 'Rejeição: CFOP não permitido para o CST informado',
  386: 'Rejeição: CFOP não permitido para o CSOSN informado',
  880: 'Rejeição: Percentual de FCP igual a zero',
  881: 'Rejeição: Percentual de FCPST igual a zero',
};
const reject = (cStat: number, nItem: string, detail: string): Rejection => ({ cStat, xMotivo: `${MESSAGES[cStat]} [nItem:${nItem}]`, detail });

// MOC N12-30 / N12a-20, exception 1: CST 90 and CSOSN 900 accepted "a critério da UF" (kept here).
// Exception 2 (emission before 2016-04-01 in production) cannot hold: the simulator refuses such dates first.
// NT 2023.001 added 61 (monophase ICMS on fuels charged earlier) to N12-30's list.
const NFCE_CSTS = new Set(['00', '20', '40', '41', '60', '61', '90']);
const NFCE_CSOSNS = new Set(['102', '103', '300', '400', '500', '900']);
const SALE_CFOPS = new Set(['5101', '5102', '5103', '5104', '5115']);
const ST_CFOPS = new Set(['5405', '5656', '5667']);

interface IcmsItem {
  nItem: string;
  /** The ICMS group's tag (ICMS00, ICMSSN500, ICMSST, ICMSPart...) and a leaf of it ('' when absent). */
  group: string;
  val: (name: string) => string;
  cest: string;
  cfop: string;
  cst: string | null;
  csosn: string | null;
  modBCST: boolean;
  /** pFCP / pFCPST of the ICMS group, as written, or null. */
  pFCP: string | null;
  pFCPST: string | null;
}

function icmsItems(xml: string): IcmsItem[] {
  return sliceAll(xml, 'det').map((det) => {
    const icms = el(el(det, 'imposto'), 'ICMS');
    const group = icms ? /^\s*<(?:[A-Za-z0-9]+:)?([A-Za-z0-9]+)[\s>]/.exec(icms.inner)?.[1] : undefined;
    const g = group ? el(icms, group) : null;
    const cst = el(g, 'CST');
    const csosn = el(g, 'CSOSN');
    const nItem = /\snItem\s*=\s*"([^"]*)"/.exec(det.outer.slice(0, det.outer.indexOf('>')))?.[1] ?? '';
    const prod = el(det, 'prod');
    return { nItem, group: group ?? '', val: (name: string) => textIn(g, name).trim(), cest: textIn(prod, 'CEST').trim(), cfop: textIn(prod, 'CFOP'), cst: cst?.inner ?? null, csosn: csosn?.inner ?? null, modBCST: el(g, 'modBCST') !== null, pFCP: el(g, 'pFCP')?.inner ?? null, pFCPST: el(g, 'pFCPST')?.inner ?? null };
  });
}

/** MOC N12-30 (766), N12-34 (381), N12-40 / N12-44 (382): the CST of an NFC-e item. */
function nfceCstRejection(i: IcmsItem, cst: string): Rejection | null {
  if (!NFCE_CSTS.has(cst)) return reject(766, i.nItem, `CST ${cst} in an NFC-e (MOC N12-30)`);
  if (cst === '90' && i.modBCST) return reject(381, i.nItem, 'ICMS90 with modBCST in an NFC-e (MOC N12-34)');
  if (cst === '60') return ST_CFOPS.has(i.cfop) ? null : reject(382, i.nItem, `CST 60 with CFOP ${i.cfop} (MOC N12-44)`);
  // N12-40 names 00, 20, 40, 41, 90 and N12-44 names 60: no rule ties CST 61 to CFOPs (I08-150's list still applies).
  if (cst === '61') return null;
  return SALE_CFOPS.has(i.cfop) ? null : reject(382, i.nItem, `CST ${cst} with CFOP ${i.cfop} (MOC N12-40)`);
}

/** MOC N12a-20 (383), N12a-34 (385), N12a-40 / N12a-44 (386): the CSOSN of an NFC-e item. */
function nfceCsosnRejection(i: IcmsItem, csosn: string): Rejection | null {
  if (!NFCE_CSOSNS.has(csosn)) return reject(383, i.nItem, `CSOSN ${csosn} in an NFC-e (MOC N12a-20)`);
  if (csosn === '900' && i.modBCST) return reject(385, i.nItem, 'ICMSSN900 with modBCST in an NFC-e (MOC N12a-34)');
  if (csosn === '500') return ST_CFOPS.has(i.cfop) ? null : reject(386, i.nItem, `CSOSN 500 with CFOP ${i.cfop} (MOC N12a-44)`);
  return SALE_CFOPS.has(i.cfop) ? null : reject(386, i.nItem, `CSOSN ${csosn} with CFOP ${i.cfop} (MOC N12a-40)`);
}

function nfceRejection(i: IcmsItem): Rejection | null {
  return i.cst !== null ? nfceCstRejection(i, i.cst) : i.csosn !== null ? nfceCsosnRejection(i, i.csosn) : null;
}

const isZero = (v: string | null) => v !== null && Number(v) === 0;
const cents = (v: string) => Math.round(Number(v || '0') * 100);

/** The rule row's words, the item number in its bracket. */
const rejectRow = (rule: string, cStat: number, nItem: string, detail: string): Rejection => ({
  cStat,
  xMotivo: `${(mocRule(rule, cStat)?.message ?? '').replace(/\s*\[[^\]]*\]\s*$/, '').trim()} [nItem:${nItem}]`,
  detail: `${detail} (MOC ${rule})`,
});

/** What the note's ide, emit and dest decide for the item rules of model 55. */
interface Operation {
  finNFe: string;
  tpNF: string;
  idDest: string;
  indFinal: string;
  indIEDest: string;
  emitUf: string;
  destUf: string;
  destCnpj: boolean;
  veicProd: boolean;
  /** An item sells a new vehicle by direct billing or direct sale (veicProd/tpOp 2 or 3). */
  directVehicle: boolean;
  comb: boolean;
}

function operationOf(f: NfeFacts): Operation {
  const inf = sliceElement(f.xml, 'infNFe');
  const ide = el(inf, 'ide');
  const dest = el(inf, 'dest');
  return {
    finNFe: f.finNFe,
    tpNF: textIn(ide, 'tpNF').trim(),
    idDest: textIn(ide, 'idDest').trim(),
    indFinal: textIn(ide, 'indFinal').trim(),
    indIEDest: textIn(dest, 'indIEDest').trim(),
    emitUf: textIn(el(el(inf, 'emit'), 'enderEmit'), 'UF').trim(),
    destUf: textIn(el(dest, 'enderDest'), 'UF').trim(),
    destCnpj: el(dest, 'CNPJ') !== null,
    veicProd: /<(?:[A-Za-z0-9]+:)?veicProd[\s>]/.test(f.xml),
    directVehicle: /<(?:[A-Za-z0-9]+:)?tpOp>\s*[23]\s*</.test(f.xml),
    comb: /<(?:[A-Za-z0-9]+:)?comb[\s>]/.test(f.xml),
  };
}

/**
 * An internal operation (idDest 1). idDest 2 with both parties in one state is I08-90's (523), a rule
 * of the item's CFOP that the MOC applies before N: the exceptions for internal operations hold then too.
 */
const internal = (o: Operation) => o.idDest === '1' || (o.emitUf !== '' && o.emitUf === o.destUf);

// CFOPs the CFOP table marks neither return (indRetor), shipment (indRemes) nor annulment (indAnula):
// the plain sales. The simulator does not hold the table; where an exception depends on those flags,
// the rule is applied to these CFOPs only (never stricter than the rule).
const PLAIN_SALE = /^[567](10[1-6]|40[1-5])$/;
/** MOC N12-70's list, with 61 since NT 2023.001. */
const NON_TAXPAYER_CSTS = new Set(['00', '20', '40', '41', '60', '61']);
const NON_TAXPAYER_CSOSNS = new Set(['102', '103', '300', '400', '500']);

/** MOC N12-70 (508): CST to a non-taxpayer (indIEDest 9) outside 00, 20, 40, 41, 60, 61, with the exceptions the simulator can see. */
function nonTaxpayerCst(o: Operation, i: IcmsItem, cst: string): boolean {
  if (o.indIEDest !== '9' || o.tpNF === '0' || o.veicProd || NON_TAXPAYER_CSTS.has(cst)) return false;
  // Exc. 2: CST 50 with a return or shipment CFOP (only plain sales are known not to be) or 5949/6949; Exc. 6: CST 50/51 in a return (finNFe 4).
  if (cst === '50') return o.finNFe !== '4' && PLAIN_SALE.test(i.cfop);
  // Exc. 7: CST 51 with CFOP 5123/5922/6123/6922, in internal operations (and their 5906/5907).
  if (cst === '51') return o.finNFe !== '4' && !internal(o) && !['5123', '5922', '6123', '6922', '5906', '5907'].includes(i.cfop);
  // Exc. 8 (the state's choice, taken): CST 10 and, since NT 2023.001 v1.40, CST 02 in an internal operation.
  if (cst === '10' || cst === '02') return !internal(o);
  // Exc. 5: CST 30 in an interstate operation with fuel (comb).
  if (cst === '30') return !(o.idDest === '2' && o.comb);
  return true;
}

/** MOC N12-80 (529): CST 50/51 to a recipient exempt from IE (indIEDest 2). */
function exemptRecipientCst(o: Operation, i: IcmsItem, cst: string): boolean {
  if (o.indIEDest !== '2' || (cst !== '50' && cst !== '51')) return false;
  // Exc. 1: CST 50 in repair (x915/x916) or demonstration within the state (x912/x913).
  if (cst === '50') return !/^(1915|1916|2915|2916|5915|5916|6915|6916|1912|1913|5912|5913)$/.test(i.cfop);
  // Exc. 3 (the state's choice, taken): CST 51 in an internal operation to a company (dest/CNPJ).
  return !(internal(o) && o.destCnpj);
}

/** MOC N12a-70 (600): CSOSN to a non-taxpayer outside 102, 103, 300, 400, 500 (not inbound, not repair/demonstration CFOPs). */
function nonTaxpayerCsosn(o: Operation, i: IcmsItem, csosn: string): boolean {
  return o.indIEDest === '9' && o.tpNF !== '0' && !NON_TAXPAYER_CSOSNS.has(csosn) && !['5915', '5916', '6915', '6916', '5912', '5913'].includes(i.cfop);
}

// N16-20: from the South and Southeast but ES to the North, Northeast, Centre-West and ES: 7 %.
const SOUTH_SOUTHEAST = new Set(['PR', 'RS', 'SC', 'SP', 'RJ', 'MG']);
const NORTH_NORTHEAST_CENTRE = new Set(['AC', 'AL', 'AP', 'AM', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MT', 'MS', 'PA', 'PB', 'PE', 'PI', 'RN', 'RO', 'RR', 'SE', 'TO']);

/** MOC N16-20 (693): pICMS of a normal interstate outbound operation above 7 % or 12 % (national goods). */
function interstateRateRejection(o: Operation, i: IcmsItem): Rejection | null {
  const pICMS = i.val('pICMS');
  if (o.idDest !== '2' || o.tpNF !== '1' || o.finNFe !== '1' || pICMS === '' || ['1', '2', '3', '8'].includes(i.val('orig'))) return null;
  // Exc. 3 and 4: return/annulment CFOPs (only plain sales are known not to be) and the sales to order (6118/6119/6122/6123, not plain).
  // Exc. 2: a sale of new vehicles with an item of direct billing or direct sale (veicProd/tpOp 2 or 3).
  if (!PLAIN_SALE.test(i.cfop) || o.directVehicle) return null;
  // idDest 2 with both parties in one state is I08-90's (523), a rule of the item's CFOP, before N.
  if (o.emitUf === o.destUf) return null;
  const ceiling = SOUTH_SOUTHEAST.has(o.emitUf) && NORTH_NORTHEAST_CENTRE.has(o.destUf) ? 700 : 1200;
  return Math.round(Number(pICMS) * 100) > ceiling ? rejectRow('N16-20', 693, i.nItem, `pICMS ${pICMS} above ${ceiling / 100} % from ${o.emitUf} to ${o.destUf}`) : null;
}

/** base * rate %, in cents (the (*4) checks: one cent either way). */
const product = (base: string, rate: string) => Math.round((cents(base) * Number(rate || '0')) / 100);
const differs = (value: string, expected: number) => Math.abs(cents(value) - expected) > 1;

/**
 * The arithmetic of the own ICMS (optional rows the MOC states for every UF alike, with no parameter
 * of the state): N16a-10 (351) vICMSOp = vBC * pICMS and N16c-10 (352) vICMSDif = vICMSOp * pDif
 * for CST 51 (model 55), N17-10 (353) vICMS = vICMSOp - vICMSDif (CST 51, unless neither is informed),
 * N17-20 (528) vICMS = vBC * pICMS for CST 00, 10, 20, 70 in a normal note. Fields not informed count as 0.
 */
function ownIcmsValueRejection(mod: string, o: Operation, i: IcmsItem): Rejection | null {
  const cst = i.cst ?? '';
  if (cst === '51' && mod === '55') {
    const vICMSOp = cents(i.val('vICMSOp'));
    const opExpected = product(i.val('vBC'), i.val('pICMS'));
    if (Math.abs(vICMSOp - opExpected) > 1) return rejectRow('N16a-10', 351, i.nItem, `vICMSOp ${i.val('vICMSOp') || '0'}, vBC * pICMS ${(opExpected / 100).toFixed(2)}`);
    const difExpected = Math.round((vICMSOp * Number(i.val('pDif') || '0')) / 100);
    if (Math.abs(cents(i.val('vICMSDif')) - difExpected) > 1) return rejectRow('N16c-10', 352, i.nItem, `vICMSDif ${i.val('vICMSDif') || '0'}, vICMSOp * pDif ${(difExpected / 100).toFixed(2)}`);
    if ((i.val('vICMSDif') !== '' || i.val('vICMS') !== '') && cents(i.val('vICMS')) !== vICMSOp - cents(i.val('vICMSDif'))) {
      return rejectRow('N17-10', 353, i.nItem, `vICMS ${i.val('vICMS') || '0'}, vICMSOp - vICMSDif ${((vICMSOp - cents(i.val('vICMSDif'))) / 100).toFixed(2)}`);
    }
  }
  if (['00', '10', '20', '70'].includes(cst) && o.finNFe === '1') {
    const expected = product(i.val('vBC'), i.val('pICMS'));
    if (differs(i.val('vICMS'), expected)) return rejectRow('N17-20', 528, i.nItem, `vICMS ${i.val('vICMS')}, vBC * pICMS ${(expected / 100).toFixed(2)}`);
  }
  return null;
}

/** MOC N28-30 (627, optional, alike in every UF): motDesICMS informed with vICMSDeson not above zero. */
function reliefRejection(i: IcmsItem): Rejection | null {
  return i.val('motDesICMS') !== '' && cents(i.val('vICMSDeson')) <= 0 ? rejectRow('N28-30', 627, i.nItem, `motDesICMS ${i.val('motDesICMS')} with vICMSDeson ${i.val('vICMSDeson') || 'absent'}`) : null;
}

/** MOC N17c-10 (860): vFCP against its base times pFCP, in a normal note. */
function fcpValueRejection(o: Operation, i: IcmsItem): Rejection | null {
  const vFCP = i.val('vFCP');
  if (vFCP === '' || o.finNFe !== '1') return null;
  const cst = i.cst ?? '';
  const base = cst === '00' ? i.val('vBC') : ['10', '20', '70', '90', '51'].includes(cst) ? i.val('vBCFCP') : null;
  if (base === null) return null;
  const expected = product(base, i.val('pFCP'));
  return differs(vFCP, expected) ? rejectRow('N17c-10', 860, i.nItem, `vFCP ${vFCP}, base * pFCP ${(expected / 100).toFixed(2)}`) : null;
}

const ST_CODES = new Set(['10', '30', '60', '70', '201', '202', '203', '500']);

/** MOC N23-10 (806): an ST code without CEST (90/900 only with vICMSST), unless the item has ICMSPart. */
function cestRejection(i: IcmsItem): Rejection | null {
  if (i.cest !== '' || i.group === 'ICMSPart') return null;
  const code = i.cst ?? i.csosn ?? '';
  const st = ST_CODES.has(code) || ((code === '90' || code === '900') && cents(i.val('vICMSST')) !== 0);
  return st ? rejectRow('N23-10', 806, i.nItem, `${i.cst !== null ? 'CST' : 'CSOSN'} ${code} without CEST`) : null;
}

/** MOC N23d-10 (860): vFCPST = vBCFCPST * pFCPST - vFCP, in a normal note. */
function fcpStValueRejection(o: Operation, i: IcmsItem): Rejection | null {
  const vFCPST = i.val('vFCPST');
  const code = i.cst ?? i.csosn ?? '';
  if (vFCPST === '' || o.finNFe !== '1' || !['10', '30', '70', '90', '201', '202', '203', '900'].includes(code)) return null;
  const expected = product(i.val('vBCFCPST'), i.val('pFCPST')) - cents(i.val('vFCP'));
  return differs(vFCPST, expected) ? rejectRow('N23d-10', 860, i.nItem, `vFCPST ${vFCPST}, vBCFCPST * pFCPST - vFCP ${(expected / 100).toFixed(2)}`) : null;
}

/** MOC N27b-10 (881): pFCPSTRet 0; N27d-10 (860): vFCPSTRet against its base times pFCPSTRet (CST 60, CSOSN 500, normal note). */
function retainedFcpRejection(o: Operation, i: IcmsItem): Rejection | null {
  const pFCPSTRet = i.val('pFCPSTRet');
  if (pFCPSTRet !== '' && Number(pFCPSTRet) === 0) return rejectRow('N27b-10', 881, i.nItem, 'pFCPSTRet 0');
  const v = i.val('vFCPSTRet');
  const code = i.cst ?? i.csosn ?? '';
  if (v === '' || o.finNFe !== '1' || (code !== '60' && code !== '500')) return null;
  const expected = product(i.val('vBCFCPSTRet'), i.val('pFCPSTRet'));
  return differs(v, expected) ? rejectRow('N27d-10', 860, i.nItem, `vFCPSTRet ${v}, vBCFCPSTRet * pFCPSTRet ${(expected / 100).toFixed(2)}`) : null;
}

/** The model 55 rules on the CST/CSOSN against the recipient (N12-70, N12-80, N12a-70). */
function recipientCodeRejection(o: Operation, i: IcmsItem): Rejection | null {
  if (i.cst !== null) {
    if (nonTaxpayerCst(o, i, i.cst)) return rejectRow('N12-70', 508, i.nItem, `CST ${i.cst} to a non-taxpayer`);
    if (exemptRecipientCst(o, i, i.cst)) return rejectRow('N12-80', 529, i.nItem, `CST ${i.cst} to a recipient exempt from IE`);
  } else if (i.csosn !== null && nonTaxpayerCsosn(o, i, i.csosn)) return rejectRow('N12a-70', 600, i.nItem, `CSOSN ${i.csosn} to a non-taxpayer`);
  return null;
}

/** MOC N17c-20 (876): vFCP in an interstate operation to a non-taxpayer final consumer (it goes in vFCPUFDest). */
function interstateFcpRejection(o: Operation, i: IcmsItem): Rejection | null {
  return o.idDest === '2' && o.indFinal === '1' && o.indIEDest === '9' && i.val('vFCP') !== '' ? rejectRow('N17c-20', 876, i.nItem, 'vFCP in an interstate sale to a non-taxpayer final consumer') : null;
}

/** The rules of one item, in the MOC's field order. */
function itemRejection(mod: string, o: Operation, i: IcmsItem): Rejection | null {
  const nfe = mod === '55';
  return (
    (mod === '65' ? nfceRejection(i) : null) ??
    (nfe ? recipientCodeRejection(o, i) ?? interstateRateRejection(o, i) : null) ??
    ownIcmsValueRejection(mod, o, i) ??
    (isZero(i.pFCP) ? reject(880, i.nItem, 'pFCP 0 (MOC N17b-10)') : null) ??
    fcpValueRejection(o, i) ??
    (nfe ? interstateFcpRejection(o, i) ?? cestRejection(i) : null) ??
    (nfe && isZero(i.pFCPST) ? reject(881, i.nItem, 'pFCPST 0 (MOC N23b-10)') : null) ??
    (nfe ? fcpStValueRejection(o, i) : null) ??
    retainedFcpRejection(o, i) ??
    reliefRejection(i)
  );
}

/** The first of these rules `f` breaks, or null. */
export function icmsRejection(f: NfeFacts, _ctx: ContentContext): Rejection | null {
  const o = operationOf(f);
  for (const i of icmsItems(f.xml)) {
    const r = itemRejection(f.mod, o, i);
    if (r) return r;
  }
  return monoRejection(f) ?? cbenefRejection(f);
}
