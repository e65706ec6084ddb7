import { detExportOf } from './export-detail.js';
import { veicProdOf } from './vehicle.js';
import { diOf, iiOf } from './import-declaration.js';
import type { DetModel, IcmsTotModel, IcmsUfDestModel, IpiModel } from '../../../fiscal/xml/nfe/model.js';
import { mulDivRound, percentOf, spreadProportionally, toCents, toScaled } from '../../../kernel/decimal.js';
import { computeItems } from '../../goods/domain/compute-items.js';
import { icmsCode } from '../../goods/domain/icms-codes.js';
import type { Crt } from '../../goods/domain/issuer-context.js';
import { icmsOf, retainedOf, type ReformItemPlan } from '../../goods/domain/item-taxes.js';
import type { SaleLines } from '../../goods/domain/sale-item.js';
import { icmsTotals } from '../../goods/domain/totals.js';
import type { NfeItem, NfeRequest } from './nfe-request.js';
import { interstateRate } from './operation.js';

// The items and totals of a valid NF-e. The NFC-e's computation (computeItems: values, discounts,
// ICMS, PIS/COFINS, IBS/CBS/IS) runs first; model 55 then adds each item's share of freight,
// insurance and other charges, IPI, CST 51 deferral and DIFAL, and the totals are summed again.

export interface ComputeNfeOptions {
  crt: Crt;
  issuerUf: string;
  destUf: string;
  /** The recipient is a final consumer (indFinal 1): IPI then belongs to the ICMS base. */
  finalConsumer: boolean;
}

export interface ComputedNfe {
  det: DetModel[];
  total: IcmsTotModel;
  /** Each item's IBS/CBS plan: the groups are computed when the note is dated (reform-schedule.ts). */
  reform: ReformItemPlan[];
}

const rate4 = (percent: number | undefined): number => (percent === undefined ? 0 : Number(toScaled(percent, 4)));
const sum = (det: readonly DetModel[], pick: (d: DetModel) => number | undefined): number => det.reduce((a, d) => a + (pick(d) ?? 0), 0);

function ipiOf(item: NfeItem, chargedValue: number): IpiModel | undefined {
  const i = item.ipi;
  if (!i) return undefined;
  const model: IpiModel = { cEnq: i.enquadramento ?? '999', CST: i.cst };
  if (i.rate !== undefined) {
    // Lei 4.502/64 art. 14 II and par. 1: the IPI base is the operation value with freight and charges.
    const vBC = i.base !== undefined ? toCents(i.base) : chargedValue;
    const pIPI = rate4(i.rate);
    model.trib = { vBC, pIPI, vIPI: percentOf(vBC, pIPI) };
  }
  return model;
}

function difalOf(item: NfeItem, base: number, o: ComputeNfeOptions): IcmsUfDestModel | undefined {
  const d = item.difal;
  if (!d) return undefined;
  const vBCUFDest = d.base !== undefined ? toCents(d.base) : base;
  const pICMSUFDest = rate4(d.destination_rate);
  const pICMSInter = interstateRate(item.origin ?? 0, o.issuerUf, o.destUf);
  // MOC NA15-10 (815): vICMSUFDest = vBCUFDest x (pICMSUFDest - pICMSInter) x pICMSInterPart, the
  // share being 100% since 2019 (NA11-10); NA17-10 (816): the sender's state keeps the rest, zero.
  const model: IcmsUfDestModel = {
    vBCUFDest, pICMSUFDest, pICMSInter, pICMSInterPart: 1_000_000,
    vICMSUFDest: percentOf(vBCUFDest, pICMSUFDest - pICMSInter), vICMSUFRemet: 0,
  };
  if (d.fcp_rate !== undefined) {
    const pFCPUFDest = rate4(d.fcp_rate);
    // NA13-10 (793): vFCPUFDest = vBCFCPUFDest x pFCPUFDest.
    model.fcp = { vBCFCPUFDest: vBCUFDest, pFCPUFDest, vFCPUFDest: percentOf(vBCUFDest, pFCPUFDest) };
  }
  return model;
}

/** CST 51: the ICMS of the operation, its deferred share (pDif, default 100%) and what is left due. */
function deferIcms(d: DetModel, item: NfeItem, base: number): void {
  if (item.pICMS === undefined) return;
  const pRedBC = rate4(item.icms_base_reduction);
  const vBC = item.vBC !== undefined ? toCents(item.vBC) : Number(mulDivRound(BigInt(base), BigInt(1_000_000 - pRedBC), 1_000_000n));
  const pICMS = rate4(item.pICMS);
  const vICMSOp = percentOf(vBC, pICMS);
  const pDif = rate4(item.deferral_rate ?? 100);
  const vICMSDif = percentOf(vICMSOp, pDif);
  d.icms.own = { modBC: 3, vBC, pICMS, vICMS: vICMSOp - vICMSDif };
  if (item.icms_base_reduction !== undefined) d.icms.own.pRedBC = pRedBC;
  d.icms.deferral = { vICMSOp, pDif, vICMSDif };
}

/** ICMSPart (CST 10/90: pBCOp, UFST) and ICMSST (CST 41/60: the retained ST and the destination's share). */
function interstateIcms(d: DetModel, item: NfeItem): void {
  const p = item.icms_partilha;
  if (p) d.icms.partilha = { pBCOp: rate4(p.operation_base_share), UFST: p.uf_st };
  const r = item.st_repasse;
  if (!r || !item.st_retained) return;
  // CST 41 has no retained block of its own (ICMS40): ICMSST carries it.
  d.icms.retained ??= retainedOf(item.st_retained);
  d.icms.repasse = { vBCSTDest: toCents(r.destination_base), vICMSSTDest: toCents(r.destination_amount) };
  const f = r.retained_fcp;
  if (f) d.icms.repasse.fcpRet = { vBCFCPSTRet: toCents(f.base), pFCPSTRet: rate4(f.rate), vFCPSTRet: toCents(f.amount) };
}

/** The relief the note total deducts: vICMSDeson of the items with indDeduzDeson 1 (NT 2023.004). */
export const deductedRelief = (det: readonly DetModel[]): number => sum(det, (d) => (d.icms.relief?.indDeduzDeson === 1 ? d.icms.relief.vICMSDeson : 0));

export function computeNfe(req: NfeRequest, o: ComputeNfeOptions): ComputedNfe {
  // The NFC-e computation reads only the item fields both models share (NfeItem extends SaleItem).
  const sale: SaleLines = { items: req.items };
  if (req.discount !== undefined) sale.discount = req.discount;
  if (req.approximate_taxes !== undefined) sale.approximate_taxes = req.approximate_taxes;
  // tpAmb 1: the homologation item description (MOC I04-10, 373) is an NFC-e rule only.
  const { det, reform } = computeItems(sale, { crt: o.crt, tpAmb: 1 });
  const nets = det.map((d) => d.vProd - d.vDesc);
  const shares = (value: number | undefined) => spreadProportionally(value ? toCents(value) : 0, nets);
  const [frete, seg, outro] = [shares(req.freight), shares(req.insurance), shares(req.other_expenses)];
  det.forEach((d, i) => {
    const item = req.items[i]!;
    if (frete[i]) d.vFrete = frete[i];
    if (seg[i]) d.vSeg = seg[i];
    if (outro[i]) d.vOutro = outro[i];
    const charged = nets[i]! + frete[i]! + seg[i]! + outro[i]!;
    const ipi = ipiOf(item, charged);
    if (ipi) d.ipi = ipi;
    const vIPI = ipi?.trib?.vIPI ?? 0;
    // LC 87/96 art. 13 par. 1 II: freight, insurance and charges are in the ICMS base; par. 2: so is
    // the IPI unless the operation is between taxpayers for resale or industrialization.
    const icmsBase = charged + (o.finalConsumer ? vIPI : 0);
    // LC 87/96 art. 8 II and Convênio ICMS 142/2018: the ST base starts from the operation value
    // with the IPI, freight, insurance and charges, whoever the recipient (docs/fiscal/icms-st.md).
    const stBase = charged + vIPI;
    if (icmsBase !== nets[i] || stBase !== nets[i]) d.icms = icmsOf(item, icmsBase, stBase);
    if (icmsCode(item) === '51') deferIcms(d, item, icmsBase);
    interstateIcms(d, item);
    const r = item.icms_relief;
    if (r) d.icms.relief = { vICMSDeson: toCents(r.amount), motDesICMS: r.reason, indDeduzDeson: r.deducted === false ? 0 : 1 };
    const difal = difalOf(item, charged + vIPI, o);
    if (difal) d.icmsUfDest = difal;
    if (item.export_detail) d.detExport = detExportOf(item.export_detail);
    if (item.vehicle) d.veicProd = veicProdOf(item.vehicle);
    if (item.import_declarations) d.di = item.import_declarations.map(diOf);
    if (item.import_tax) d.ii = iiOf(item.import_tax);
  });
  const base = icmsTotals(det);
  const total: IcmsTotModel = {
    ...base,
    // MOC W04a-10 (795): the sum of the items' vICMSDeson.
    vICMSDeson: sum(det, (d) => d.icms.relief?.vICMSDeson),
    vFrete: sum(det, (d) => d.vFrete),
    vSeg: sum(det, (d) => d.vSeg),
    vOutro: sum(det, (d) => d.vOutro),
    vIPI: sum(det, (d) => d.ipi?.trib?.vIPI),
    // MOC W11-10 (601): the sum of the items' II/vII.
    vII: sum(det, (d) => d.ii?.vII),
    // MOC W06b-10 (859): the sum of the items' vFCPSTRet (N27d). ICMSST's vBCSTRet/vICMSSTRet and
    // vBCSTDest/vICMSSTDest are in no total (W03-W06 sum N15, N17, N21, N23); ICMSPart's vBC, vICMS,
    // vBCST, vICMSST and vFCPST add up as ICMS10/90's do.
    vFCPSTRet: sum(det, (d) => d.icms.repasse?.fcpRet?.vFCPSTRet),
  };
  if (det.some((d) => d.icmsUfDest)) {
    total.vFCPUFDest = sum(det, (d) => d.icmsUfDest?.fcp?.vFCPUFDest);
    total.vICMSUFDest = sum(det, (d) => d.icmsUfDest?.vICMSUFDest);
    total.vICMSUFRemet = sum(det, (d) => d.icmsUfDest?.vICMSUFRemet);
  }
  // MOC W16-10 (610): vNF = vProd - vDesc - vICMSDeson + vST + vFCPST + vFrete + vSeg + vOutro + vII
  // + vIPI + vIPIDevol (+ vServ of ISSQN items, which this gateway does not issue), where NT 2023.004
  // deducts only the relief of the items with indDeduzDeson 1, + vICMSMonoReten (NT 2023.001: the monophase
  // ICMS the issuer retains of CST 15; docs/fiscal/icms-relief.md, docs/fiscal/icms-monophase.md).
  total.vNF = total.vProd - total.vDesc - deductedRelief(det) + total.vST + total.vFCPST + total.vFrete + total.vSeg + total.vOutro + total.vII + total.vIPI + total.vIPIDevol +
    (total.vICMSMonoReten ?? 0);
  return { det, total, reform };
}
