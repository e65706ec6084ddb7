// The fields of a schema-valid DPS (docs/fiscal/nfse-national.md#dps) that Sefin's rules and the NFS-e need, read from the DOM.
import type { Element } from '@xmldom/xmldom';
import { childOf, textAt } from './document-checks.js';

export interface DpsFacts {
  id: string;
  tpAmb: 1 | 2;
  dhEmi: string;
  serie: string;
  nDPS: string;
  dCompet: string;
  tpEmit: string;
  cLocEmi: string;
  /** The provider: CNPJ or CPF. */
  prest: { CNPJ?: string; CPF?: string; IM?: string; fone?: string; email?: string; hasName: boolean; hasAddress: boolean };
  subst?: { chSubstda: string; cMotivo: string; xMotivo?: string };
  /** CNPJ/CPF of the taker and the intermediary, when identified by one. */
  tomaId?: string;
  intermId?: string;
  cLocPrestacao?: string;
  cPaisPrestacao?: string;
  cTribNac: string;
  cTribMun?: string;
  /** prest/regTrib/opSimpNac: 1 outside the Simples Nacional, 2 MEI, 3 ME/EPP. */
  opSimpNac: string;
  cNBS?: string;
  values: DpsAmounts;
  /** infDPS/IBSCBS, when the DPS carries it (2026 reform). */
  ibsCbs?: DpsIbsCbsFacts;
}

/** What Sefin needs of infDPS/IBSCBS to write infNFSe/IBSCBS (write-nfse-ibscbs.ts). */
export interface DpsIbsCbsFacts {
  cIndOp: string;
  indDest: string;
  CST: string;
  cClassTrib: string;
  /** The sum of valores/gReeRepRes/documentos/vlrReeRepRes, in cents. */
  vReeRepRes: number;
  /** The municipality of the taker's (toma/end/endNac) and of the recipient's (IBSCBS/dest/end/endNac) address. */
  tomaMun?: string;
  destMun?: string;
}

/** Amounts in cents, rates in hundredths of a percent. */
export interface DpsAmounts {
  vServ: number;
  vDescIncond: number;
  vDescCond: number;
  vDR: number;
  pDR?: number;
  /** TSTribISSQN: 1 taxable, 2 immunity, 3 export, 4 no incidence. */
  tribISSQN: number;
  tpRetISSQN: number;
  pAliq?: number;
  vPis: number;
  vCofins: number;
  tpRetPisCofins: number;
  vRetCP: number;
  vRetIRRF: number;
  vRetCSLL: number;
}

const cents = (text: string | undefined): number => (text === undefined ? 0 : Math.round(Number(text) * 100));
const optCents = (text: string | undefined): number | undefined => (text === undefined ? undefined : cents(text));

function partyId(party: Element | undefined): string | undefined {
  if (!party) return undefined;
  return textAt(party, 'CNPJ') ?? textAt(party, 'CPF');
}

export function dpsFacts(dps: Element): DpsFacts {
  const inf = childOf(dps, 'infDPS')!;
  const t = (path: string) => textAt(inf, path);
  const prest = childOf(inf, 'prest')!;
  const subst = childOf(inf, 'subst');
  const trib = 'valores/trib';
  const piscofins = `${trib}/tribFed/piscofins`;
  const facts: DpsFacts = {
    id: inf.getAttribute('Id') ?? '',
    tpAmb: t('tpAmb') === '1' ? 1 : 2,
    dhEmi: t('dhEmi')!,
    serie: t('serie')!,
    nDPS: t('nDPS')!,
    dCompet: t('dCompet')!,
    tpEmit: t('tpEmit')!,
    cLocEmi: t('cLocEmi')!,
    prest: {
      ...(textAt(prest, 'CNPJ') ? { CNPJ: textAt(prest, 'CNPJ')! } : {}),
      ...(textAt(prest, 'CPF') ? { CPF: textAt(prest, 'CPF')! } : {}),
      ...(textAt(prest, 'IM') ? { IM: textAt(prest, 'IM')! } : {}),
      ...(textAt(prest, 'fone') ? { fone: textAt(prest, 'fone')! } : {}),
      ...(textAt(prest, 'email') ? { email: textAt(prest, 'email')! } : {}),
      hasName: textAt(prest, 'xNome') !== undefined,
      hasAddress: childOf(prest, 'end') !== undefined,
    },
    cTribNac: t('serv/cServ/cTribNac')!,
    opSimpNac: t('prest/regTrib/opSimpNac')!,
    values: {
      vServ: cents(t('valores/vServPrest/vServ')),
      vDescIncond: cents(t('valores/vDescCondIncond/vDescIncond')),
      vDescCond: cents(t('valores/vDescCondIncond/vDescCond')),
      vDR: cents(t('valores/vDedRed/vDR')),
      tribISSQN: Number(t(`${trib}/tribMun/tribISSQN`) ?? 1),
      tpRetISSQN: Number(t(`${trib}/tribMun/tpRetISSQN`) ?? 1),
      vPis: cents(t(`${piscofins}/vPis`)),
      vCofins: cents(t(`${piscofins}/vCofins`)),
      tpRetPisCofins: Number(t(`${piscofins}/tpRetPisCofins`) ?? 0),
      vRetCP: cents(t(`${trib}/tribFed/vRetCP`)),
      vRetIRRF: cents(t(`${trib}/tribFed/vRetIRRF`)),
      vRetCSLL: cents(t(`${trib}/tribFed/vRetCSLL`)),
    },
  };
  const pDR = optCents(t('valores/vDedRed/pDR'));
  if (pDR !== undefined) facts.values.pDR = pDR;
  const pAliq = optCents(t(`${trib}/tribMun/pAliq`));
  if (pAliq !== undefined) facts.values.pAliq = pAliq;
  if (subst) {
    facts.subst = { chSubstda: textAt(subst, 'chSubstda')!, cMotivo: textAt(subst, 'cMotivo')! };
    const xMotivo = textAt(subst, 'xMotivo');
    if (xMotivo) facts.subst.xMotivo = xMotivo;
  }
  const tomaId = partyId(childOf(inf, 'toma'));
  if (tomaId) facts.tomaId = tomaId;
  const intermId = partyId(childOf(inf, 'interm'));
  if (intermId) facts.intermId = intermId;
  const loc = t('serv/locPrest/cLocPrestacao');
  if (loc) facts.cLocPrestacao = loc;
  const pais = t('serv/locPrest/cPaisPrestacao');
  if (pais) facts.cPaisPrestacao = pais;
  const cTribMun = t('serv/cServ/cTribMun');
  if (cTribMun) facts.cTribMun = cTribMun;
  const nbs = t('serv/cServ/cNBS');
  if (nbs) facts.cNBS = nbs;
  const ibsCbs = ibsCbsFacts(inf);
  if (ibsCbs) facts.ibsCbs = ibsCbs;
  return facts;
}

function ibsCbsFacts(inf: Element): DpsIbsCbsFacts | undefined {
  const g = childOf(inf, 'IBSCBS');
  if (!g) return undefined;
  const trib = 'valores/trib/gIBSCBS';
  const out: DpsIbsCbsFacts = { cIndOp: textAt(g, 'cIndOp')!, indDest: textAt(g, 'indDest')!, CST: textAt(g, `${trib}/CST`)!, cClassTrib: textAt(g, `${trib}/cClassTrib`)!, vReeRepRes: 0 };
  const group = childOf(childOf(g, 'valores')!, 'gReeRepRes');
  for (let n = group?.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (n as Element).localName === 'documentos') out.vReeRepRes += cents(textAt(n as Element, 'vlrReeRepRes'));
  }
  const tomaMun = textAt(inf, 'toma/end/endNac/cMun');
  if (tomaMun) out.tomaMun = tomaMun;
  const destMun = textAt(g, 'dest/end/endNac/cMun');
  if (destMun) out.destMun = destMun;
  return out;
}
