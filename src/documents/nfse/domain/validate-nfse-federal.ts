import { checkNumber, fail, OPTIONAL_MONEY, type Errors } from '../../../fiscal/layout/field-rules.js';
import { percentOf, toCents, toScaled } from '../../../kernel/decimal.js';
import { deductionOf } from './figures.js';
import type { NfseIssuer } from './nfse-context.js';
import type { NfseRequest } from './nfse-request.js';
import { pisCofinsDue } from '../../../fiscal/reform/pis-cofins-end.js';

// tribFed: PIS/COFINS and the federal withholdings, Anexo I E0677-E0724.

// TSTipoCST (PIS/COFINS).
const TIPO_CST = new Set(['00', '01', '02', '03', '04', '05', '06', '07', '08', '09', '49', '50', '51', '52', '53', '54', '55', '56', '60', '61', '62', '63', '64', '65', '66', '67', '70', '71', '72', '73', '74', '75', '98', '99']);
// TSDec2V2 (pAliqPis, pAliqCofins): up to 99.99 with two decimals (E0686/E0692 allow up to 100).
const RATE2 = { places: 2, sign: 'non-negative', max: 99.99, required: false } as const;

/** CST 00 (none), 08 (no incidence), 09 (suspension): no base, rates nor withholding type are due (E0678, E0682, E0698). */
export function pisCofinsTaxed(cst: string): boolean {
  return !['00', '08', '09'].includes(cst);
}

/** The PIS/COFINS base when not given: the ISSQN base (service_amount - unconditional_discount - deductions), in cents. */
function defaultPisCofinsBase(req: NfseRequest): number {
  const v = req.values;
  const vServ = toCents(v.service_amount);
  const incond = toCents(v.unconditional_discount ?? 0);
  const dedRed = v.deduction_rate !== undefined ? { pDR: Number(toScaled(v.deduction_rate, 2)) } : v.deductions ? { vDR: toCents(v.deductions) } : undefined;
  return vServ - incond - (dedRed ? deductionOf({ vServ, vDescIncond: incond, dedRed }) : 0);
}

/** base x rate (percent, two decimals) in cents, as E0694/E0696 compare it. */
export function pisCofinsAmount(base: number, rate: number): number {
  return percentOf(base, Number(toScaled(rate, 4)));
}

export function checkFederal(errors: Errors, req: NfseRequest, vServ: number | undefined, issuer: NfseIssuer): void {
  const f = req.values.federal;
  const pc = f?.pis_cofins;
  const at = 'values.federal.pis_cofins';
  // E0675 / E0676: no federal taxes (tribFed) from a provider identified by CPF, nor from a MEI.
  if (f && (f.pis_cofins || f.withholdings)) {
    if (issuer.taxId.replace(/\D/g, '').length === 11) fail(errors, 'values.federal', 'must be absent when the provider is a person (CPF) (Anexo I E0675)', 'E0675');
    else if (issuer.simplesNacional === 2) fail(errors, 'values.federal', 'must be absent for a MEI provider (Anexo I E0676)', 'E0676');
  }
  if (pc) {
    if (!TIPO_CST.has(pc.cst)) fail(errors, `${at}.cst`, `must be one of the CSTs of TSTipoCST: ${[...TIPO_CST].join(', ')}`);
    const okBase = checkNumber(errors, `${at}.base`, pc.base, OPTIONAL_MONEY);
    const okPis = checkNumber(errors, `${at}.pis_rate`, pc.pis_rate, RATE2);
    const okCofins = checkNumber(errors, `${at}.cofins_rate`, pc.cofins_rate, RATE2);
    checkNumber(errors, `${at}.pis_amount`, pc.pis_amount, OPTIONAL_MONEY);
    checkNumber(errors, `${at}.cofins_amount`, pc.cofins_amount, OPTIONAL_MONEY);
    if (pc.withheld !== undefined && !(Number.isInteger(pc.withheld) && pc.withheld >= 0 && pc.withheld <= 9)) fail(errors, `${at}.withheld`, 'must be 0 to 9 (TSTipoRetPISCofins)');
    if (!pisCofinsTaxed(pc.cst)) {
      // E0682: no base with CST 00, 08, 09.
      if (pc.base !== undefined) fail(errors, `${at}.base`, 'must be absent with CST 00, 08 or 09 (Anexo I E0682)', 'E0682');
    } else if (vServ !== undefined && (pc.base === undefined || okBase)) {
      const base = pc.base !== undefined ? toCents(pc.base) : defaultPisCofinsBase(req);
      // E0677/E0680: base > 0 and not above the service value.
      if (base > vServ) fail(errors, `${at}.base`, 'must be at most service_amount (Anexo I E0677)', 'E0677');
      else if (base <= 0) fail(errors, `${at}.base`, 'must be greater than zero (Anexo I E0680)', 'E0680');
      // E0684 / E0690: with a base, both rates.
      if (pc.pis_rate === undefined) fail(errors, `${at}.pis_rate`, 'is required with a CST other than 00, 08, 09 (Anexo I E0684)', 'E0684');
      if (pc.cofins_rate === undefined) fail(errors, `${at}.cofins_rate`, 'is required with a CST other than 00, 08, 09 (Anexo I E0690)', 'E0690');
      // E0688: CST 04 and 06 are zero-rate operations.
      if ((pc.cst === '04' || pc.cst === '06') && ((pc.pis_rate ?? 0) !== 0 || (pc.cofins_rate ?? 0) !== 0)) fail(errors, at, 'CST 04 and 06 need pis_rate and cofins_rate 0 (Anexo I E0688)', 'E0688');
      // E0694 / E0696: an amount given must be base x rate.
      if (okPis && pc.pis_rate !== undefined && pc.pis_amount !== undefined && toCents(pc.pis_amount) !== pisCofinsAmount(base, pc.pis_rate)) {
        fail(errors, `${at}.pis_amount`, `must be base x pis_rate = ${(pisCofinsAmount(base, pc.pis_rate) / 100).toFixed(2)} (Anexo I E0694); or leave it out to have it computed`, 'E0694');
      }
      if (okCofins && pc.cofins_rate !== undefined && pc.cofins_amount !== undefined && toCents(pc.cofins_amount) !== pisCofinsAmount(base, pc.cofins_rate)) {
        fail(errors, `${at}.cofins_amount`, `must be base x cofins_rate = ${(pisCofinsAmount(base, pc.cofins_rate) / 100).toFixed(2)} (Anexo I E0696); or leave it out to have it computed`, 'E0696');
      }
      // E0698: the withholding type is required.
      if (pc.withheld === undefined) fail(errors, `${at}.withheld`, 'is required with a CST other than 00, 08, 09: 0 to 9 per TSTipoRetPISCofins (Anexo I E0698)', 'E0698');
    }
  }
  const w = f?.withholdings;
  if (w) {
    for (const [k, rule] of [['csll', 'E0701'], ['irrf', 'E0700'], ['cp', 'E0699']] as const) {
      // E0699 (CP), E0700 (IRRF), E0701 (CSLL): greater than zero and less than the service value.
      if (checkNumber(errors, `values.federal.withholdings.${k}`, w[k], { ...OPTIONAL_MONEY, sign: 'positive' }) && vServ !== undefined && toCents(w[k]!) >= vServ) {
        fail(errors, `values.federal.withholdings.${k}`, `must be less than service_amount (Anexo I ${rule})`, rule);
      }
    }
  }
  const ret = pc?.withheld;
  // E0720: withheld 0 (nothing withheld) excludes vRetCSLL; E0724: other than 0 and 2 requires it.
  if (ret === 0 && w?.csll !== undefined) fail(errors, 'values.federal.withholdings.csll', 'must be absent when pis_cofins.withheld is 0 (Anexo I E0720)', 'E0720');
  if (ret !== undefined && ret !== 0 && ret !== 2 && w?.csll === undefined) fail(errors, 'values.federal.withholdings.csll', `is required when pis_cofins.withheld is ${ret} (Anexo I E0724)`, 'E0724');
}

/** tpRetPisCofins that withhold PIS or COFINS (TSTipoRetPISCofins: 1, 3, 4, 5, 6, 7, 9); 0, 2 and 8 withhold neither. */
const WITHHOLDS_PIS_OR_COFINS = new Set([1, 3, 4, 5, 6, 7, 9]);

/**
 * A service whose competence (the taxable event, dCompet) is in 2027 or later bears no PIS nor COFINS: both end with
 * 2026 (src/fiscal/reform/pis-cofins-end.ts). The national layout has no rule on it (Anexo I E0677-E0724 have no
 * date; docs/fiscal/nfse-reform.md), so the gateway refuses from the law: a taxed CST (one with base and rates), or
 * a withholding of PIS or COFINS. CST 00, 08, 09 without values, and the withholding of CSLL alone (8), stay.
 */
export function checkPisCofinsCompetence(errors: Errors, req: NfseRequest): void {
  const pc = req.values.federal?.pis_cofins;
  if (!pc || !/^[0-9]{4}-/.test(req.competence_date)) return;
  const year = Number(req.competence_date.slice(0, 4));
  if (pisCofinsDue(year)) return;
  const at = 'values.federal.pis_cofins';
  if (pisCofinsTaxed(pc.cst)) fail(errors, `${at}.cst`, `must be 00, 08 or 09 for a competence in ${year}: PIS/PASEP and COFINS end with 2026 (ADCT art. 126 II b, EC 132/2023; LC 214/2025 art. 542 revokes their laws from 1 January 2027); or leave pis_cofins out`);
  if (pc.withheld !== undefined && WITHHOLDS_PIS_OR_COFINS.has(pc.withheld)) fail(errors, `${at}.withheld`, `must be 0, 2 or 8 for a competence in ${year}: PIS/PASEP and COFINS end with 2026 (ADCT art. 126 II b, EC 132/2023; LC 214/2025 art. 542), so neither is withheld; 8 withholds the CSLL alone`);
}
