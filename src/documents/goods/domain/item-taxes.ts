import type { IbsCbsModel, IbsCbsReductionModel, IcmsModel, IsModel, OwnIcmsModel, PisCofinsModel, StModel, StRetainedModel } from '../../../fiscal/xml/nfe/model.js';
import { mulDivRound, percentOf, toCents, toScaled } from '../../../kernel/decimal.js';
import { CREDIT_CODES, hasOwnIcms, hasSt, icmsCode, REDUCED_BASE_CODES, RETAINED_CODES } from './icms-codes.js';
import { isSimplesNacional, type Crt } from './issuer-context.js';
import type { ReformRates } from './reform-rates.js';
import type { SaleItem } from './sale-item.js';
import { icmsMonoOf, MONO_CSTS } from './icms-mono-item.js';
import { effectiveRate, regularTaxationOf, withDeferral, type RegularPlan } from './reform-deferral.js';

// Tax values of one item, computed from its net value (vProd - vDesc) in integer cents.

const rate4 = (percent: number | undefined): number => (percent === undefined ? 0 : Number(toScaled(percent, 4)));

/** cents * (1 + add%) * (1 - cut%), each step rounded to cents. */
function adjustBase(cents: number, addRate4: number, cutRate4: number): number {
  const raised = Number(mulDivRound(BigInt(cents), BigInt(1_000_000 + addRate4), 1_000_000n));
  return Number(mulDivRound(BigInt(raised), BigInt(1_000_000 - cutRate4), 1_000_000n));
}

function ownIcms(item: SaleItem, net: number): OwnIcmsModel {
  const pRedBC = rate4(item.icms_base_reduction);
  // modBC 3 = value of the operation: the base is the item value (reduced when pRedBC applies).
  const vBC = item.vBC !== undefined ? toCents(item.vBC) : adjustBase(net, 0, pRedBC);
  const pICMS = rate4(item.pICMS);
  const own: OwnIcmsModel = { modBC: 3, vBC, pICMS, vICMS: percentOf(vBC, pICMS) };
  if (item.icms_base_reduction !== undefined) own.pRedBC = pRedBC;
  if (item.fcp_rate !== undefined) {
    const pFCP = rate4(item.fcp_rate);
    own.fcp = { vBCFCP: vBC, pFCP, vFCP: percentOf(vBC, pFCP) };
  }
  return own;
}

/** stNet: the operation value the ST base starts from (with IPI and charges: docs/fiscal/icms-st.md). */
function st(item: SaleItem, stNet: number, ownIcmsValue: number, ownFcpValue: number): StModel {
  const input = item.st ?? { rate: 0 };
  const pMVAST = rate4(input.mva);
  const pRedBCST = rate4(input.base_reduction);
  const vBCST = input.base !== undefined ? toCents(input.base) : adjustBase(stNet, pMVAST, pRedBCST);
  const pICMSST = rate4(input.rate);
  // LC 87/96 art. 8 par. 5: ST due = the destination's internal rate on the ST base minus the ICMS
  // of the substitute's own operation.
  const vICMSST = Math.max(0, percentOf(vBCST, pICMSST) - ownIcmsValue);
  const model: StModel = { modBCST: input.modality ?? 4, vBCST, pICMSST, vICMSST };
  if (input.mva !== undefined) model.pMVAST = pMVAST;
  if (input.base_reduction !== undefined) model.pRedBCST = pRedBCST;
  if (input.fcp_rate !== undefined) {
    const pFCPST = rate4(input.fcp_rate);
    // MOC N23d-10 (860): vFCPST = vBCFCPST x pFCPST - vFCP, the FCP of the own operation deducted as
    // its ICMS is from the ST; never below zero (the NF-e validation refuses a rate that would make it so).
    model.fcp = { vBCFCPST: vBCST, pFCPST, vFCPST: Math.max(0, percentOf(vBCST, pFCPST) - ownFcpValue) };
  }
  return model;
}

/** vBCSTRet, pST, vICMSSTRet, [vICMSSubstituto] from st_retained. */
export function retainedOf(r: NonNullable<SaleItem['st_retained']>): StRetainedModel {
  const model: StRetainedModel = { vBCSTRet: toCents(r.base), pST: rate4(r.rate), vICMSSTRet: toCents(r.amount) };
  if (r.substitute_amount !== undefined) model.vICMSSubstituto = toCents(r.substitute_amount);
  return model;
}

/**
 * net: the item's ICMS base before any reduction; stNet: where the ST base starts (LC 87/96 art. 8
 * II: the operation value with IPI, freight, insurance and charges), the same as net unless the IPI
 * is out of the own ICMS base (LC 87/96 art. 13 par. 2) but in the ST base (docs/fiscal/icms-st.md).
 */
export function icmsOf(item: SaleItem, net: number, stNet = net): IcmsModel {
  const code = icmsCode(item)!;
  const model: IcmsModel = { code, orig: item.origin ?? 0 };
  if (hasOwnIcms(code, item)) model.own = ownIcms(item, net);
  if (REDUCED_BASE_CODES.has(code) && model.own) model.own.pRedBC ??= 0;
  if (hasSt(code, item)) {
    // Simples issuers and CST 30 have no own-operation group; the own ICMS deducted from the ST is
    // then pICMS (the internal or interstate rate of the own operation) on the item value. CSOSN
    // 201/202/203 require pICMS (validate-item.ts, docs/fiscal/icms-st.md).
    const ownValue = model.own ? model.own.vICMS : percentOf(net, rate4(item.pICMS));
    model.st = st(item, stNet, ownValue, model.own?.fcp?.vFCP ?? 0);
  }
  if (RETAINED_CODES.has(code) && item.st_retained) model.retained = retainedOf(item.st_retained);
  if (MONO_CSTS.has(code) && item.icms_mono) model.mono = icmsMonoOf(code, item.icms_mono, item.quantity, item.fuel?.anp_code);
  if (CREDIT_CODES.has(code) || (code === '900' && item.simples_credit_rate !== undefined)) {
    const pCredSN = rate4(item.simples_credit_rate);
    model.credit = { pCredSN, vCredICMSSN: percentOf(net, pCredSN) };
  }
  return model;
}

/** Defaults: Simples pays PIS/COFINS inside the DAS (CST 49, zero); regime normal CST 01 at the
 *  cumulative rates 0.65% / 3% (Lei 9.718/98). Requests override both per item. */
const DEFAULT_RATES = { PIS: 0.65, COFINS: 3 } as const;

export function pisCofinsOf(tax: 'PIS' | 'COFINS', item: SaleItem, net: number, crt: Crt): PisCofinsModel {
  const input = tax === 'PIS' ? item.pis : item.cofins;
  const cst = input?.cst ?? (isSimplesNacional(crt) ? '49' : '01');
  if (/^0[4-9]$/.test(cst)) return { CST: cst };
  const percent = input?.rate ?? (input === undefined && !isSimplesNacional(crt) ? DEFAULT_RATES[tax] : 0);
  const r = rate4(percent);
  return { CST: cst, vBC: net, rate: r, value: percentOf(net, r) };
}

/**
 * CST 410 (immunity and non-incidence) with cClassTrib 410004, "Exportações de bens e serviços,
 * observado o art. 8º da LC 214/2025": the default of an export (CFOP 7xxx). Exports are immune
 * (CF art. 156-A par. 1 III and art. 195 par. 16, EC 132/2023; LC 214/2025 art. 8) and the
 * classification table gives 410004 the rate type "Sem Alíquota": no gIBSCBS group.
 */
export const EXPORT_CST = '410';
export const EXPORT_CLASS_CODE = '410004';
/** The CSTs whose codes carry no rate (table of CST x cClassTrib, NT 2025.002-RTC): only CST and cClassTrib. */
export const CSTS_WITHOUT_RATE: ReadonlySet<string> = new Set(['410']);

export const isExportCfop = (cfop: string): boolean => cfop.startsWith('7');


/**
 * What the request decides of an item's IBS/CBS, before the note is dated: CST, cClassTrib, the
 * rates and reduction the client sent (scale 4) and the selective tax. An export (CFOP 7xxx) without
 * a CST of its own gets CST 410 / cClassTrib 410004; any other item without one 000 / 000001
 * (`proposed`: the gateway chose them).
 */
export interface ReformItemPlan {
  CST: string;
  cClassTrib: string;
  proposed: boolean;
  rates: { ibsState?: number; ibsMunicipal?: number; cbs?: number };
  /** pRedAliq of the IBS (UF and Mun) and of the CBS, scale 4: the cClassTrib's pRedIBS / pRedCBS. */
  reduction?: { ibs: number; cbs: number };
  /** The CST's ind_gIBSCBS in the CST table (reform-class-checks.ts); CSTS_WITHOUT_RATE decides without it. */
  withGroup?: boolean;
  selective?: { CSTIS: string; cClassTribIS: string; pIS: number };
  /** pDif (scale 4) of a CST whose ind_gDif is 1 (510, 515): reform-deferral.ts. */
  deferral?: number;
  /** gTribRegular of a cClassTrib whose ind_gTribRegular is 1 (CST 550): the item's own rates are 0 (reform-deferral.ts). */
  regular?: RegularPlan;
  /** reform.presumed_credit (reform-presumed-credit.ts): cCredPres, base in cents, rates scale 4. */
  presumedCredit?: { code: string; base?: number; ibs?: number; cbs?: number };
  /** reform.credit_transfer (reform-credit-transfer.ts): gTransfCred values in cents. */
  transfer?: { vIBS: number; vCBS: number };
}

export function reformPlanOf(item: SaleItem): ReformItemPlan {
  const reform = item.reform ?? {};
  const exported = isExportCfop(item.cfop) && reform.cst === undefined;
  const plan: ReformItemPlan = {
    CST: reform.cst ?? (exported ? EXPORT_CST : '000'),
    cClassTrib: reform.class_code ?? (exported ? EXPORT_CLASS_CODE : '000001'),
    proposed: reform.cst === undefined && reform.class_code === undefined,
    rates: {},
  };
  if (reform.ibs_state_rate !== undefined) plan.rates.ibsState = rate4(reform.ibs_state_rate);
  if (reform.ibs_municipal_rate !== undefined) plan.rates.ibsMunicipal = rate4(reform.ibs_municipal_rate);
  if (reform.cbs_rate !== undefined) plan.rates.cbs = rate4(reform.cbs_rate);
  if (reform.rate_reduction !== undefined) plan.reduction = { ibs: rate4(reform.rate_reduction), cbs: rate4(reform.rate_reduction) };
  if (reform.deferral_rate !== undefined) plan.deferral = rate4(reform.deferral_rate);
  if (reform.regular_taxation) plan.regular = { CST: reform.regular_taxation.cst, cClassTrib: reform.regular_taxation.class_code };
  const pc = reform.presumed_credit;
  if (pc) {
    plan.presumedCredit = { code: pc.code };
    if (pc.base !== undefined) plan.presumedCredit.base = toCents(pc.base);
    if (pc.ibs_rate !== undefined) plan.presumedCredit.ibs = rate4(pc.ibs_rate);
    if (pc.cbs_rate !== undefined) plan.presumedCredit.cbs = rate4(pc.cbs_rate);
  }
  if (reform.credit_transfer) plan.transfer = { vIBS: toCents(reform.credit_transfer.ibs), vCBS: toCents(reform.credit_transfer.cbs) };
  const s = reform.selective_tax;
  if (s) plan.selective = { CSTIS: s.cst, cClassTribIS: s.class_code, pIS: rate4(s.rate) };
  return plan;
}

function rateOf(sent: number | undefined, ofYear: number | null, field: string): number {
  if (sent !== undefined) return sent;
  // prepare refuses such an item with a 422 (reform-rate-checks.ts) for the year it is prepared in;
  // only a note prepared in one year and dated in the next can get here.
  if (ofYear === null) throw new Error(`the ${field} of the note's year is not known: the item must send reform.${field}`);
  return ofYear;
}

/**
 * The item's IBSCBS group on its base vBC (reform-base.ts) at the rates of the note's year, or the
 * client's. With a rate reduction (gRed, CST 200) each tax is charged at its effective rate
 * pAliqEfet = rate x (1 - pRedAliq/100) on the base. A code without rate (CST 410) carries none.
 * Deferral (gDif, CST 510/515) and regular taxation (gTribRegular, CST 550): reform-deferral.ts.
 */
export function ibsCbsGroupOf(plan: ReformItemPlan, vBC: number, year: ReformRates): IbsCbsModel {
  const model = rateGroupOf(plan, vBC, year);
  if (!model.gIBSCBS) return model;
  // The deferral and the regular taxation come after the rates and reduction (reform-deferral.ts).
  let g = plan.deferral !== undefined ? withDeferral(model.gIBSCBS, plan.deferral) : model.gIBSCBS;
  if (plan.regular) {
    // The rates of the year (or the client's) are those of the regular taxation; the item's own are 0.
    const rates = { ibsState: rateOf(plan.rates.ibsState, year.ibsState, 'ibs_state_rate'), ibsMunicipal: rateOf(plan.rates.ibsMunicipal, year.ibsMunicipal, 'ibs_municipal_rate'), cbs: rateOf(plan.rates.cbs, year.cbs, 'cbs_rate') };
    g = { ...g, gTribRegular: regularTaxationOf(plan.regular, vBC, rates) };
  }
  return { ...model, gIBSCBS: g };
}

function rateGroupOf(plan: ReformItemPlan, vBC: number, year: ReformRates): IbsCbsModel {
  const { CST, cClassTrib } = plan;
  if (!(plan.withGroup ?? !CSTS_WITHOUT_RATE.has(CST))) return { CST, cClassTrib };
  // NT 2025.002-RTC UB18-10, UB37-10, UB56-10, exception: a cClassTrib of regular taxation carries rates 0.
  const pIBSUF = plan.regular ? 0 : rateOf(plan.rates.ibsState, year.ibsState, 'ibs_state_rate');
  const pIBSMun = plan.regular ? 0 : rateOf(plan.rates.ibsMunicipal, year.ibsMunicipal, 'ibs_municipal_rate');
  const pCBS = plan.regular ? 0 : rateOf(plan.rates.cbs, year.cbs, 'cbs_rate');
  if (plan.reduction === undefined) {
    return { CST, cClassTrib, gIBSCBS: { vBC, pIBSUF, vIBSUF: percentOf(vBC, pIBSUF), pIBSMun, vIBSMun: percentOf(vBC, pIBSMun), pCBS, vCBS: percentOf(vBC, pCBS) } };
  }
  const { ibs, cbs } = plan.reduction;
  const gRed: IbsCbsReductionModel = { pRedAliq: ibs, pAliqEfetUF: effectiveRate(pIBSUF, ibs), pAliqEfetMun: effectiveRate(pIBSMun, ibs), pAliqEfetCBS: effectiveRate(pCBS, cbs) };
  if (cbs !== ibs) gRed.pRedAliqCBS = cbs;
  return {
    CST,
    cClassTrib,
    gIBSCBS: {
      vBC,
      pIBSUF,
      vIBSUF: percentOf(vBC, gRed.pAliqEfetUF),
      pIBSMun,
      vIBSMun: percentOf(vBC, gRed.pAliqEfetMun),
      pCBS,
      vCBS: percentOf(vBC, gRed.pAliqEfetCBS),
      gRed,
    },
  };
}

/** The IS group on the item's value net of discount. */
export function selectiveTaxOf(plan: ReformItemPlan, net: number): IsModel | undefined {
  const s = plan.selective;
  if (!s) return undefined;
  return { ...s, vBCIS: net, pIS: s.pIS, vIS: percentOf(net, s.pIS) };
}
