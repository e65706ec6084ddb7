import type { DetModel, IcmsTotModel } from '../../../fiscal/xml/nfe/model.js';
import { HOMOLOGATION_ITEM_DESCRIPTION } from '../../../fiscal/layout/homologation.js';
import type { Crt } from './issuer-context.js';
import { icmsOf, pisCofinsOf, reformPlanOf, type ReformItemPlan } from './item-taxes.js';
import type { SaleLines } from './sale-item.js';
import { layoutText } from '../../../fiscal/layout/text.js';
import { combOf } from './fuel-item.js';
import { medOf, rastroOf } from './medicine-item.js';
import { approximateTaxes, icmsTotals, itemAmounts } from './totals.js';

export interface ComputeOptions {
  crt: Crt;
  tpAmb: 1 | 2;
}

export interface ComputedItems {
  det: DetModel[];
  total: IcmsTotModel;
  /** What each item's IBS/CBS will be made of when the note is dated (reform-schedule.ts). */
  reform: ReformItemPlan[];
}

/** The items of a validated sale with all their values, and the document totals. */
export function computeItems(sale: SaleLines, options: ComputeOptions): ComputedItems {
  const amounts = itemAmounts(sale.items, sale.discount);
  const vTotTrib = approximateTaxes(sale.items, amounts, sale.approximate_taxes);
  const det = sale.items.map((item, i): DetModel => {
    const a = amounts[i]!;
    const d: DetModel = {
      nItem: i + 1,
      cProd: item.code !== undefined ? layoutText(item.code) : String(i + 1),
      cEAN: item.gtin ?? 'SEM GTIN',
      // 373: in homologation the first item's description is the mandatory test phrase.
      xProd: options.tpAmb === 2 && i === 0 ? HOMOLOGATION_ITEM_DESCRIPTION : layoutText(item.description),
      NCM: item.ncm,
      CFOP: item.cfop,
      uCom: layoutText(item.unit),
      qCom: a.q4,
      vUnCom: a.p10,
      vProd: a.vProd,
      vDesc: a.vDesc,
      icms: icmsOf(item, a.net),
      pis: pisCofinsOf('PIS', item, a.net, options.crt),
      cofins: pisCofinsOf('COFINS', item, a.net, options.crt),
    };
    if (item.cest !== undefined) d.CEST = item.cest;
    if (item.benefit_code !== undefined) d.cBenef = item.benefit_code;
    if (vTotTrib[i] !== undefined) d.vTotTrib = vTotTrib[i];
    if (item.additional_info !== undefined) d.infAdProd = layoutText(item.additional_info);
    if (item.fuel !== undefined) d.comb = combOf(item.fuel);
    if (item.batches !== undefined && item.batches.length > 0) d.rastro = rastroOf(item.batches);
    if (item.medicine !== undefined) d.med = medOf(item.medicine);
    return d;
  });
  const total = icmsTotals(det);
  // The IBS/CBS groups depend on the note's date (rates, base): added when it is built.
  return { det, total, reform: sale.items.map(reformPlanOf) };
}
