import { sliceAll, type ElementSlice } from '../fiscal/sefaz/xml-slice.js';
import { el, textIn, type Broken, type ItemContext } from './reform-rule-context.js';

// NT 2025.002-RTC rules on government purchases (ide/gCompraGov: B31-10, B32-10, B34-10; item gTribCompraGov:
// UB82a-10/20/30), credit transfer (gTransfCred: UB106-30/31/40) and the presumed credit of the operation
// (gCredPresOper: UB120-10/20, UB122-10, UB123-10/20, UB125-10, UB126-10, UB127-10/20, UB129-10, UB130-10), as
// the NT v1.31 rule table words them (docs/fiscal/reform-rules.md). The tables' rows (cClassTrib's
// ind_gCredPresOper, cCredPres's ind_gIBSCredPres / ind_gCBSCredPres) come from reform-tables-view.ts; a rule
// whose row is not known is not played (never stricter than the authority).

const units = (v: string | null, places: number) => Math.round(Number(v ?? '0') * 10 ** places);

/**
 * B32-10 (1008), as data: from the year given, a purchase by this entity (tpEnteGov) must carry zero in the rates
 * listed (the other entities' share goes to the buyer, LC 214/2025 art. 473 par. 1 and art. 372). The NT's
 * Observação cites art. 473 par. 1 I-IV. Entities 5 and 6 (v1.40 XSD) are not in the v1.31 rule: not played.
 */
const OTHER_ENTITIES_ZERO: readonly { from: number; until?: number; tpEnteGov: string; zero: readonly ('pIBSUF' | 'pIBSMun' | 'pCBS')[] }[] = [
  { from: 2027, until: 2033, tpEnteGov: '1', zero: ['pIBSUF', 'pIBSMun'] },
  { from: 2027, until: 2033, tpEnteGov: '2', zero: ['pIBSMun'] },
  { from: 2027, until: 2033, tpEnteGov: '3', zero: ['pIBSMun'] },
  { from: 2027, until: 2033, tpEnteGov: '4', zero: ['pIBSUF'] },
  { from: 2033, tpEnteGov: '1', zero: ['pIBSUF', 'pIBSMun'] },
  { from: 2033, tpEnteGov: '2', zero: ['pCBS', 'pIBSMun'] },
  { from: 2033, tpEnteGov: '3', zero: ['pCBS', 'pIBSMun'] },
  { from: 2033, tpEnteGov: '4', zero: ['pIBSUF', 'pCBS'] },
];
const RATE_GROUP = { pIBSUF: 'gIBSUF', pIBSMun: 'gIBSMun', pCBS: 'gCBS' } as const;

/** B31-10, B32-10, B34-10: the note's gCompraGov against the model, the items' rates and its references. */
export function governmentNoteBroken(inf: ElementSlice, ide: ElementSlice | null, mod: string, date: string): Broken | null {
  const gov = el(ide, 'gCompraGov');
  if (!gov) return null;
  if (mod === '65') return { id: 'B31-10', detail: 'an NFC-e with ide/gCompraGov' };
  const tpEnteGov = textIn(gov, 'tpEnteGov') ?? '';
  const year = Number(date.slice(0, 4));
  const row = OTHER_ENTITIES_ZERO.find((r) => r.tpEnteGov === tpEnteGov && r.from <= year && (r.until === undefined || year < r.until));
  if (row) {
    for (const det of sliceAll(inf.inner, 'det')) {
      const g = el(el(el(det, 'imposto'), 'IBSCBS'), 'gIBSCBS');
      for (const rate of row.zero) {
        const p = textIn(el(g, RATE_GROUP[rate]), rate);
        if (p !== null && units(p, 4) > 0) return { id: 'B32-10', detail: `${rate} ${p} in a purchase by tpEnteGov ${tpEnteGov} dated ${year}` };
      }
    }
  }
  // v1.31 asks for NFref/refNFe; the v1.40 XSD adds gCompraGov/refDFeAnt for it: either is accepted.
  if (textIn(gov, 'tpOperGov') === '2' && !ide?.inner.includes('<refNFe>') && !el(gov, 'refDFeAnt')) {
    return { id: 'B34-10', detail: 'tpOperGov 2 (receipt of the payment) without the supply note referenced' };
  }
  return null;
}

/** UB82a-10/20/30: gTribCompraGov exactly with gCompraGov, its values adding up to the item's (tolerance 0.04). */
export function governmentItemBroken(g: ElementSlice, ctx: ItemContext): Broken | null {
  const trib = el(g, 'gTribCompraGov');
  const government = ctx.pRedutor !== null;
  if (government && !trib) return { id: 'UB82a-10', detail: 'gCompraGov without gIBSCBS/gTribCompraGov' };
  if (!government && trib) return { id: 'UB82a-30', detail: 'gTribCompraGov without ide/gCompraGov' };
  if (!trib) return null;
  const sum = (within: ElementSlice | null, names: readonly string[]) => names.reduce((acc, n) => acc + units(textIn(within, n), 2), 0);
  const declared = sum(trib, ['vTribIBSUF', 'vTribIBSMun', 'vTribCBS']);
  const item = units(textIn(el(g, 'gIBSUF'), 'vIBSUF'), 2) + units(textIn(el(g, 'gIBSMun'), 'vIBSMun'), 2) + units(textIn(el(g, 'gCBS'), 'vCBS'), 2);
  if (Math.abs(declared - item) > 4) return { id: 'UB82a-20', detail: `gTribCompraGov adds up to ${(declared / 100).toFixed(2)}, the item's IBS and CBS to ${(item / 100).toFixed(2)}` };
  return null;
}

/**
 * UB106-31/40: gTransfCred on a debit note of type 01 or 05, with a value above zero. UB106-30 (gTransfCred on a note
 * that is not a debit note, 1133) is played with the other finNFe 5/6 rules in adjustment-note-rules.ts.
 */
export function transferBroken(ibscbs: ElementSlice, finNFe: string, tpNFDebito: string | null): Broken | null {
  const transf = el(ibscbs, 'gTransfCred');
  if (!transf || finNFe !== '6') return null;
  if (tpNFDebito !== '01' && tpNFDebito !== '05') return { id: 'UB106-31', detail: `gTransfCred on a debit note of type ${tpNFDebito ?? '(none)'}` };
  if (units(textIn(transf, 'vIBS'), 2) <= 0 && units(textIn(transf, 'vCBS'), 2) <= 0) return { id: 'UB106-40', detail: 'gTransfCred with vIBS and vCBS zero' };
  return null;
}

/** The per-tax rules of gIBSCredPres (UB123-UB126) and gCBSCredPres (UB127-UB130). */
const CREDIT_TAXES = [
  { group: 'gIBSCredPres', tax: 'ibs', forbidden: 'UB123-10', required: 'UB123-20', overProd: 'UB125-10', condSus: 'UB126-10', condSusFrom: 2033 },
  { group: 'gCBSCredPres', tax: 'cbs', forbidden: 'UB127-10', required: 'UB127-20', overProd: 'UB129-10', condSus: 'UB130-10', condSusFrom: 2027 },
] as const;
/** cCredPres 04: purchase of used movable goods from a non-taxpayer individual for resale (LC 214/2025 art. 171). */
const USED_GOODS = '04';

/** UB120-10 ... UB130-10: gCredPresOper against the model, the classification and the cCredPres table. */
export function presumedCreditBroken(ibscbs: ElementSlice, det: ElementSlice | null, ctx: ItemContext, classAllows: boolean | null): Broken | null {
  const oper = el(ibscbs, 'gCredPresOper');
  if (!oper) return null;
  if (ctx.mod === '65') return { id: 'UB120-10', detail: 'gCredPresOper in an NFC-e' };
  // Exception of UB120-20 / UB123-10 / UB127-10: the supply of a used movable good (indBemMovelUsado 1).
  const usedGood = textIn(el(det, 'prod'), 'indBemMovelUsado') === '1';
  if (classAllows === false && !usedGood) return { id: 'UB120-20', detail: 'gCredPresOper with a cClassTrib whose ind_gCredPresOper is 0' };
  const code = textIn(oper, 'cCredPres') ?? '';
  const row = ctx.tables?.presumedCredit?.(code);
  if (ctx.tables?.presumedCredit && !row) return { id: 'UB122-10', detail: `cCredPres ${code} is not in the table` };
  const year = Number(ctx.date.slice(0, 4));
  const vProd = units(textIn(el(det, 'prod'), 'vProd'), 2);
  for (const t of CREDIT_TAXES) {
    const group = el(oper, t.group);
    if (row && !row[t.tax] && group && !usedGood) return { id: t.forbidden, detail: `${t.group} with cCredPres ${code} (ind_g${t.tax.toUpperCase()}CredPres 0)` };
    if (row && row[t.tax] && !group) return { id: t.required, detail: `no ${t.group} with cCredPres ${code} (ind_g${t.tax.toUpperCase()}CredPres 1)` };
    if (!group) continue;
    const v = textIn(group, 'vCredPres');
    if (v !== null && code === USED_GOODS && units(v, 2) > vProd) return { id: t.overProd, detail: `${t.group}/vCredPres ${v} above vProd` };
    if (textIn(group, 'vCredPresCondSus') !== null && (year < t.condSusFrom || code !== USED_GOODS)) {
      return { id: t.condSus, detail: `${t.group}/vCredPresCondSus with cCredPres ${code} in ${year}` };
    }
  }
  return null;
}
