import type { DetModel, IcmsTotModel, ReformTotModel } from '../../../fiscal/xml/nfe/model.js';
import { mulDivRound, spreadProportionally, toCents, toScaled } from '../../../kernel/decimal.js';
import type { SaleItem } from './sale-item.js';

// Item values and document totals with the layout's rounding: item vProd = round(qCom * vUnCom, 2);
// every total is the exact sum of the item values written (564 and the 5xx sum rules), and
// vNF = vProd - vDesc - vICMSDeson + vST + vFCPST + vFrete + vSeg + vOutro + vII + vIPI + vIPIDevol
// (MOC rule W16-10; ISSQN vServ does not apply: NFC-e has no ISSQN items here).

export interface ItemAmounts {
  q4: bigint;
  p10: bigint;
  vProd: number;
  vDesc: number;
  /** vProd - vDesc: the value every tax base starts from. */
  net: number;
}

/** qCom (scale 4) x vUnCom (scale 10) = scale 14, rounded half up to cents. */
export function itemValue(quantity: number, unitPrice: number): { q4: bigint; p10: bigint; vProd: number } {
  const q4 = toScaled(quantity, 4);
  const p10 = toScaled(unitPrice, 10);
  return { q4, p10, vProd: Number(mulDivRound(q4, p10, 1_000_000_000_000n)) };
}

/**
 * vProd and vDesc of each item. A sale-level discount is spread in proportion to each item's
 * value after its own discount, the rounding remainder going to the largest item.
 */
export function itemAmounts(items: readonly SaleItem[], saleDiscount: number | undefined): ItemAmounts[] {
  const base = items.map((item) => {
    const v = itemValue(item.quantity, item.unit_price);
    return { ...v, own: item.discount ? toCents(item.discount) : 0 };
  });
  const shares = spreadProportionally(saleDiscount ? toCents(saleDiscount) : 0, base.map((b) => b.vProd - b.own));
  return base.map((b, i) => {
    const vDesc = b.own + shares[i]!;
    return { q4: b.q4, p10: b.p10, vProd: b.vProd, vDesc, net: b.vProd - vDesc };
  });
}

/** Lei 12.741 amounts: the item's own, else its share of the sale-level figure. */
export function approximateTaxes(items: readonly SaleItem[], amounts: readonly ItemAmounts[], saleTotal: number | undefined): Array<number | undefined> {
  const withoutOwn = items.map((item, i) => (item.approximate_taxes === undefined ? amounts[i]!.net : 0));
  const shares = spreadProportionally(saleTotal ? toCents(saleTotal) : 0, withoutOwn);
  return items.map((item, i) => {
    if (item.approximate_taxes !== undefined) return toCents(item.approximate_taxes);
    return saleTotal !== undefined ? shares[i] : undefined;
  });
}

const sum = <T>(list: readonly T[], pick: (t: T) => number | undefined): number => list.reduce((acc, t) => acc + (pick(t) ?? 0), 0);

/** Hundredths of a sum of scale-4 quantities, half up: the totals' qBCMono* are TDec_1302. */
const hundredths = (q4: bigint): number => Number((q4 + 50n) / 100n);

/**
 * NT 2023.001 W06b.1-W06e: each monophase total is the sum of its item field (qBCMono and vICMSMono of CST
 * 02/15/53, the retention of CST 15, the ICMS charged earlier of CST 61); a pair is written only when some item
 * has its group. Of them only vICMSMonoReten adds to vNF (model 55: compute-nfe.ts; docs/fiscal/icms-monophase.md).
 */
function monoTotals(det: readonly DetModel[]): Pick<IcmsTotModel, 'qBCMono' | 'vICMSMono' | 'qBCMonoReten' | 'vICMSMonoReten' | 'qBCMonoRet' | 'vICMSMonoRet'> {
  const out: Pick<IcmsTotModel, 'qBCMono' | 'vICMSMono' | 'qBCMonoReten' | 'vICMSMonoReten' | 'qBCMonoRet' | 'vICMSMonoRet'> = {};
  const pairs = [['own', 'qBCMono', 'vICMSMono'], ['reten', 'qBCMonoReten', 'vICMSMonoReten'], ['ret', 'qBCMonoRet', 'vICMSMonoRet']] as const;
  for (const [key, q, v] of pairs) {
    const parts = det.map((d) => d.icms.mono?.[key]).filter((p) => p !== undefined);
    if (parts.length === 0) continue;
    out[q] = hundredths(parts.reduce((a, p) => a + p.q, 0n));
    out[v] = parts.reduce((a, p) => a + p.value, 0);
  }
  return out;
}

export function icmsTotals(det: readonly DetModel[]): IcmsTotModel {
  const vProd = sum(det, (d) => d.vProd);
  const vDesc = sum(det, (d) => d.vDesc);
  const vST = sum(det, (d) => d.icms.st?.vICMSST);
  const vFCPST = sum(det, (d) => d.icms.st?.fcp?.vFCPST);
  return {
    vBC: sum(det, (d) => d.icms.own?.vBC),
    vICMS: sum(det, (d) => d.icms.own?.vICMS),
    vICMSDeson: 0,
    vFCP: sum(det, (d) => d.icms.own?.fcp?.vFCP),
    vBCST: sum(det, (d) => d.icms.st?.vBCST),
    vST,
    vFCPST,
    vFCPSTRet: 0,
    ...monoTotals(det),
    vProd,
    vFrete: 0,
    vSeg: 0,
    vDesc,
    vII: 0,
    vIPI: 0,
    vIPIDevol: 0,
    vPIS: sum(det, (d) => d.pis?.value),
    vCOFINS: sum(det, (d) => d.cofins?.value),
    vOutro: 0,
    vNF: vProd - vDesc + vST + vFCPST,
    vTotTrib: sum(det, (d) => d.vTotTrib),
  };
}

/**
 * The first year the IBS, CBS and IS are added to the note's total. NT 2025.002-RTC (v1.51) rule VB01-10:
 * vItem = vProd - vDesc + vICMSST + vFCPST + vFrete + vSeg + vOutro + vII + vIPI + vIPIDevol ... + vIBS + vCBS
 * + vIS, "Exceção 1: Em 2025 e 2026 não somar vIBS, vCBS, vIS"; rule W60-10: vNFTot is the sum of the items'
 * vItem. So a note dated 2026 has vNFTot = vNF, one dated 2027 or later vNF + vIBS + vCBS + vIS
 * (docs/fiscal/tax-reform.md, "The note's total").
 */
export const TAXES_IN_TOTAL_FROM_YEAR = 2027;

/** IBSCBSTot / ISTot and vNFTot of the items; `year`: the note's local year (its dhEmi). */
export function reformTotals(det: readonly DetModel[], vNF: number, year: number): ReformTotModel {
  const vIBSUF = sum(det, (d) => d.ibscbs?.gIBSCBS?.vIBSUF);
  const vIBSMun = sum(det, (d) => d.ibscbs?.gIBSCBS?.vIBSMun);
  const vCBS = sum(det, (d) => d.ibscbs?.gIBSCBS?.vCBS);
  const hasIs = det.some((d) => d.is);
  const vIS = sum(det, (d) => d.is?.vIS);
  const totals: ReformTotModel = {
    vBCIBSCBS: sum(det, (d) => d.ibscbs?.gIBSCBS?.vBC),
    vIBSUF,
    vIBSMun,
    vIBS: vIBSUF + vIBSMun,
    vCBS,
    // XSD vNFTot: "Valor Total da NF considerando os impostos por fora IBS, CBS e IS"; not in 2025-2026 (VB01-10).
    vNFTot: year >= TAXES_IN_TOTAL_FROM_YEAR ? vNF + vIBSUF + vIBSMun + vCBS + vIS : vNF,
  };
  if (hasIs) totals.vIS = vIS;
  // NT 2025.002-RTC W38-10, W43-10, W53-10: each vDif of IBSCBSTot is the sum of the items' gDif/vDif.
  if (det.some((d) => d.ibscbs?.gIBSCBS?.gDif)) {
    totals.vDifUF = sum(det, (d) => d.ibscbs?.gIBSCBS?.gDif?.vDifUF);
    totals.vDifMun = sum(det, (d) => d.ibscbs?.gIBSCBS?.gDif?.vDifMun);
    totals.vDifCBS = sum(det, (d) => d.ibscbs?.gIBSCBS?.gDif?.vDifCBS);
  }
  // W48-10 / W56a-10: the presumed credits of the items (gCredPresOper, reform-presumed-credit.ts).
  const vCredPresIBS = sum(det, (d) => d.ibscbs?.gCredPresOper?.gIBSCredPres?.vCredPres);
  const vCredPresCBS = sum(det, (d) => d.ibscbs?.gCredPresOper?.gCBSCredPres?.vCredPres);
  if (vCredPresIBS) totals.vCredPresIBS = vCredPresIBS;
  if (vCredPresCBS) totals.vCredPresCBS = vCredPresCBS;
  return totals;
}

