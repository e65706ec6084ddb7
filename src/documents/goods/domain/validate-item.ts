import { checkNcmExists } from '../../../fiscal/layout/ncm.js';
import { checkNumber, checkPattern, checkText, fail, isValidGtin, OPTIONAL_MONEY, OPTIONAL_PERCENT, PERCENT, type Errors } from '../../../fiscal/layout/field-rules.js';
import { CREDIT_CODES, icmsCode, icmsCodeField, NFCE_CSOSNS, NFCE_CSTS, OWN_ICMS_CODES, OPTIONAL_OWN_ICMS_CODES, OPTIONAL_ST_CODES, REDUCED_BASE_CODES, RETAINED_CODES, ST_CODES } from './icms-codes.js';
import { isSimplesNacional, type Crt } from './issuer-context.js';
import type { SaleItem } from './sale-item.js';
import { itemValue } from './totals.js';
import { CSTS_WITHOUT_RATE, EXPORT_CST, isExportCfop } from './item-taxes.js';
import { checkFcpRates } from './fcp-rates.js';
import { toCents } from '../../../kernel/decimal.js';
import { checkReformRules } from './validate-reform-rules.js';
import { checkReformCreditShapes } from './reform-presumed-credit.js';
import { pisCofinsGroup } from '../../../fiscal/xml/nfe/taxes/pis-cofins.js';
import { checkFuel } from './validate-fuel.js';
import { checkIcmsMono, MONO_CSTS } from './icms-mono-item.js';
import { checkMedicine } from './validate-medicine.js';

/** What differs between the item checks of an NFC-e and an NF-e (model 55 reuses validateItem). */
export interface ItemRules {
  /** "an NFC-e", "an NF-e": how messages name the document. */
  document: string;
  cfop: RegExp;
  cfopMessage: string;
  csts: readonly string[];
  csosns: readonly string[];
  /** Codes whose own ICMS (pICMS, vBC, pRedBC) is optional. */
  optionalOwn: ReadonlySet<string>;
  /** Checks of the model on a CFOP of the right shape. */
  checkCfop?: (errors: Errors, field: string, cfop: string) => void;
}

/** MOC I08-150 (725): the CFOPs an NFC-e accepts; 5933 (ISSQN service) needs an ISSQN group the gateway does not write (I08-160, 374). */
const NFCE_CFOPS = new Set(['5101', '5102', '5103', '5104', '5115', '5405', '5656', '5667']);
function checkNfceCfop(errors: Errors, field: string, cfop: string): void {
  if (cfop === '5933') fail(errors, field, '5933 (service taxed by ISSQN) needs the ISSQN group, which this API does not write (MOC I08-160, 374)', 'I08-160');
  else if (!NFCE_CFOPS.has(cfop)) fail(errors, field, `${cfop} is not a CFOP an NFC-e accepts (MOC I08-150, 725): use one of ${[...NFCE_CFOPS].join(', ')}`, 'I08-150');
}

export const NFCE_ITEM_RULES: ItemRules = {
  document: 'an NFC-e',
  cfop: /^5[0-9]{3}$/,
  cfopMessage: 'must be a 4-digit CFOP starting with 5: an NFC-e is an in-state sale to a consumer (e.g. 5102, or 5405 for goods under ST)',
  csts: NFCE_CSTS,
  csosns: NFCE_CSOSNS,
  optionalOwn: OPTIONAL_OWN_ICMS_CODES,
  checkCfop: checkNfceCfop,
};

const QUANTITY = { places: 4, sign: 'positive', max: 99_999_999_999.9999 } as const;
const UNIT_PRICE = { places: 10, sign: 'positive', max: 99_999_999_999 } as const;
const MVA = { places: 4, sign: 'non-negative', max: 999.9999, required: false } as const;

function checkIcmsCode(errors: Errors, at: string, item: SaleItem, crt: Crt, rules: ItemRules): string | undefined {
  if (item.cst_icms !== undefined && item.csosn !== undefined && item.cst_icms !== item.csosn) {
    fail(errors, `${at}.csosn`, 'differs from cst_icms; send only one of them');
    return undefined;
  }
  const code = icmsCode(item);
  const field = `${at}.${icmsCodeField(item)}`;
  const simples = isSimplesNacional(crt);
  if (code === undefined) {
    fail(errors, field, simples ? 'is required: the CSOSN of the item (e.g. 102)' : 'is required: the ICMS CST of the item (e.g. 00)');
    return undefined;
  }
  if (simples) {
    if (rules.csosns.includes(code)) return code;
    // MOC N12-20 (590) as NT 2023.001 amended it: a Simples issuer may send the monophase fuel CSTs.
    if (MONO_CSTS.has(code) && rules.csts.includes(code)) return code;
    if (/^[0-9]{2}$/.test(code)) {
      fail(errors, field, `${code} is a CST for regime-normal issuers, but this issuer is in the Simples Nacional (CRT ${crt}) and must send a CSOSN: ${rules.csosns.join(', ')}`);
    } else fail(errors, field, `${code} is not a CSOSN ${rules.document} accepts; use one of ${rules.csosns.join(', ')}`);
    return undefined;
  }
  if (rules.csts.includes(code)) return code;
  if (code === '50' || code === '51') {
    const rule = code === '50' ? '766' : '740';
    fail(errors, field, `CST ${code} (${code === '50' ? 'suspension' : 'deferral'}) is not allowed in an NFC-e (authority rejection ${rule}); issue an NF-e (model 55) for this operation`);
  } else if (/^[0-9]{3}$/.test(code)) {
    fail(errors, field, `${code} is a CSOSN for Simples Nacional issuers, but this issuer is in the regime normal (CRT 3) and must send a CST: ${rules.csts.join(', ')}`);
  } else fail(errors, field, `${code} is not an ICMS CST ${rules.document} accepts; use one of ${rules.csts.join(', ')}`);
  return undefined;
}

/** st_retained: vBCSTRet, pST, vICMSSTRet, [vICMSSubstituto] (ICMS60, ICMSSN500 and the NF-e's ICMSST). */
export function checkRetained(errors: Errors, at: string, r: NonNullable<SaleItem['st_retained']>): void {
  checkNumber(errors, `${at}.st_retained.base`, r.base, { ...OPTIONAL_MONEY, required: true });
  checkNumber(errors, `${at}.st_retained.rate`, r.rate, PERCENT);
  checkNumber(errors, `${at}.st_retained.amount`, r.amount, { ...OPTIONAL_MONEY, required: true });
  checkNumber(errors, `${at}.st_retained.substitute_amount`, r.substitute_amount, OPTIONAL_MONEY);
}

/** CSOSNs under which a Simples issuer charges ST as substitute (ICMSSN201/202, CSOSN 203 in ICMSSN202). */
const SIMPLES_ST_CODES = new Set(['201', '202', '203']);

/**
 * The ST a Simples substitute charges is the destination's rate on the ST base minus the ICMS of its
 * own operation at the internal or interstate rate (LC 87/96 art. 8 par. 5; docs/fiscal/icms-st.md):
 * the group has no field for that rate, so pICMS carries it and is required, never guessed.
 */
function checkSimplesStRate(errors: Errors, at: string, pICMS: unknown, code: string): void {
  if (pICMS === undefined) {
    fail(errors, `${at}.pICMS`, `is required with CSOSN ${code}: the ICMS rate of your own operation (your state's internal rate, or the interstate rate 4, 7 or 12 for a sale to another state); the ST charged is the destination rate on the ST base minus this ICMS`);
    return;
  }
  checkNumber(errors, `${at}.pICMS`, pICMS, PERCENT);
}

function checkIcmsFields(errors: Errors, at: string, item: SaleItem, code: string, rules: ItemRules): void {
  const needsOwn = OWN_ICMS_CODES.has(code);
  if (SIMPLES_ST_CODES.has(code)) checkSimplesStRate(errors, at, item.pICMS, code);
  if (needsOwn) checkNumber(errors, `${at}.pICMS`, item.pICMS, PERCENT);
  else if (rules.optionalOwn.has(code)) checkNumber(errors, `${at}.pICMS`, item.pICMS, OPTIONAL_PERCENT);
  else if (item.vBC !== undefined) fail(errors, `${at}.vBC`, `is not used with code ${code}: the item has no own ICMS`);
  checkNumber(errors, `${at}.vBC`, item.vBC, OPTIONAL_MONEY);
  if (REDUCED_BASE_CODES.has(code)) checkNumber(errors, `${at}.icms_base_reduction`, item.icms_base_reduction, PERCENT);
  else if (item.icms_base_reduction !== undefined && !rules.optionalOwn.has(code)) fail(errors, `${at}.icms_base_reduction`, `is only used with CST 20, 70, 90 or CSOSN 900, not ${code}`);
  else checkNumber(errors, `${at}.icms_base_reduction`, item.icms_base_reduction, OPTIONAL_PERCENT);
  checkNumber(errors, `${at}.fcp_rate`, item.fcp_rate, OPTIONAL_PERCENT);
  if (item.fcp_rate !== undefined && !(needsOwn || (OPTIONAL_OWN_ICMS_CODES.has(code) && code === '90' && item.pICMS !== undefined))) {
    fail(errors, `${at}.fcp_rate`, `is only used with CST 00, 10, 20, 70 or 90 with pICMS, not ${code}`);
  }
  if (ST_CODES.has(code) && item.st === undefined) fail(errors, `${at}.st`, `is required for code ${code} (ICMS tax substitution): give at least st.rate`);
  if (item.st !== undefined) {
    if (!ST_CODES.has(code) && !OPTIONAL_ST_CODES.has(code)) fail(errors, `${at}.st`, `is only used with CST 10, 30, 70, 90 or CSOSN 201, 202, 203, 900, not ${code}`);
    const st = item.st;
    checkNumber(errors, `${at}.st.rate`, st.rate, PERCENT);
    checkNumber(errors, `${at}.st.mva`, st.mva, MVA);
    checkNumber(errors, `${at}.st.base_reduction`, st.base_reduction, OPTIONAL_PERCENT);
    checkNumber(errors, `${at}.st.base`, st.base, OPTIONAL_MONEY);
    checkNumber(errors, `${at}.st.fcp_rate`, st.fcp_rate, OPTIONAL_PERCENT);
    if (st.modality !== undefined && !(Number.isInteger(st.modality) && st.modality >= 0 && st.modality <= 6)) fail(errors, `${at}.st.modality`, 'must be an integer from 0 to 6 (modBCST)');
  }
  if (item.st_retained !== undefined) {
    if (!RETAINED_CODES.has(code)) fail(errors, `${at}.st_retained`, `is only used with CST 60 or CSOSN 500, not ${code}`);
    checkRetained(errors, at, item.st_retained);
  }
  checkIcmsMono(errors, at, code, item.icms_mono, item.fuel !== undefined);
  if (CREDIT_CODES.has(code)) checkNumber(errors, `${at}.simples_credit_rate`, item.simples_credit_rate, PERCENT);
  else if (item.simples_credit_rate !== undefined && code !== '900') fail(errors, `${at}.simples_credit_rate`, `is only used with CSOSN 101, 201 or 900, not ${code}`);
  else checkNumber(errors, `${at}.simples_credit_rate`, item.simples_credit_rate, OPTIONAL_PERCENT);
}

/**
 * The groups the IBS/CBS CST asks for (table of CST x cClassTrib of NT 2025.002-RTC): CST 410
 * (immunity) carries no rate, so neither rates nor a reduction go with it. CST 200's reduction is
 * the cClassTrib's (reform-class-checks.ts).
 */
function checkReformCodes(errors: Errors, at: string, item: SaleItem): void {
  const reform = item.reform!;
  const cst = reform.cst ?? (typeof item.cfop === 'string' && isExportCfop(item.cfop) ? EXPORT_CST : '000');
  // CST 200's reduction (gRed) is the cClassTrib's in the classification table (reform-class-checks.ts).
  if (CSTS_WITHOUT_RATE.has(cst)) {
    for (const f of ['ibs_state_rate', 'ibs_municipal_rate', 'cbs_rate', 'rate_reduction'] as const) {
      if (reform[f] !== undefined) fail(errors, `${at}.reform.${f}`, `is not used with CST ${cst} (immunity and non-incidence: the item carries CST and cClassTrib only, no gIBSCBS)`);
    }
  } else checkNumber(errors, `${at}.reform.rate_reduction`, reform.rate_reduction, OPTIONAL_PERCENT);
}

function checkOtherTaxes(errors: Errors, at: string, item: SaleItem): void {
  for (const tax of ['pis', 'cofins'] as const) {
    const input = item[tax];
    if (!input) continue;
    const group = typeof input.cst === 'string' ? pisCofinsGroup(input.cst) : null;
    if (group === null) fail(errors, `${at}.${tax}.cst`, `must be one of 01, 02, 04-09, 49-56, 60-67, 70-75, 98, 99 (CST 03, per-quantity rate, is not supported)`);
    else if (group === 'NT' && input.rate !== undefined) fail(errors, `${at}.${tax}.rate`, `is not used with CST ${input.cst} (not taxed)`);
    checkNumber(errors, `${at}.${tax}.rate`, input.rate, { ...OPTIONAL_PERCENT, required: group === 'Aliq' });
  }
  const reform = item.reform;
  if (reform) {
    checkPattern(errors, `${at}.reform.cst`, reform.cst, /^[0-9]{3}$/, 'must be 3 digits', false);
    checkPattern(errors, `${at}.reform.class_code`, reform.class_code, /^[0-9]{6}$/, 'must be 6 digits (cClassTrib)', false);
    checkNumber(errors, `${at}.reform.ibs_state_rate`, reform.ibs_state_rate, OPTIONAL_PERCENT);
    checkNumber(errors, `${at}.reform.ibs_municipal_rate`, reform.ibs_municipal_rate, OPTIONAL_PERCENT);
    checkNumber(errors, `${at}.reform.cbs_rate`, reform.cbs_rate, OPTIONAL_PERCENT);
    checkReformCodes(errors, at, item);
    checkReformCreditShapes(errors, at, reform);
    const s = reform.selective_tax;
    if (s) {
      checkPattern(errors, `${at}.reform.selective_tax.cst`, s.cst, /^[0-9]{3}$/, 'must be 3 digits');
      checkPattern(errors, `${at}.reform.selective_tax.class_code`, s.class_code, /^[0-9]{6}$/, 'must be 6 digits (cClassTribIS)');
      checkNumber(errors, `${at}.reform.selective_tax.rate`, s.rate, PERCENT);
    }
  }
  checkNumber(errors, `${at}.approximate_taxes`, item.approximate_taxes, OPTIONAL_MONEY);
}

/** Item errors; returns the item value in cents (vProd) when quantity and price are valid. */
export function validateItem(errors: Errors, index: number, item: SaleItem, crt: Crt, rules: ItemRules = NFCE_ITEM_RULES): number | undefined {
  const at = `items[${index}]`;
  checkText(errors, `${at}.description`, item.description, 1, 120);
  checkText(errors, `${at}.code`, item.code, 1, 60, false);
  checkText(errors, `${at}.unit`, item.unit, 1, 6);
  checkText(errors, `${at}.additional_info`, item.additional_info, 1, 500, false);
  if (item.ncm === '00') {
    // MOC I05-24 (471): NCM 00 is for a service item (ISSQN) or an adjustment note; the gateway writes neither.
    fail(errors, `${at}.ncm`, 'must be the 8-digit NCM code of the product: 00 is only for a service item or an adjustment note (MOC I05-24, 471)', 'I05-24');
  } else if (typeof item.ncm === 'string' && /^[0-9]{2}$/.test(item.ncm)) {
    fail(errors, `${at}.ncm`, 'must be the full NCM, 8 digits (MOC I05-10, 777)', 'I05-10');
  } else if (checkPattern(errors, `${at}.ncm`, item.ncm, /^[0-9]{8}$/, 'must be the 8-digit NCM code of the product (digits only)')) checkNcmExists(errors, `${at}.ncm`, item.ncm);
  if (checkPattern(errors, `${at}.cfop`, item.cfop, rules.cfop, rules.cfopMessage)) rules.checkCfop?.(errors, `${at}.cfop`, item.cfop);
  checkPattern(errors, `${at}.cest`, item.cest, /^[0-9]{7}$/, 'must be the 7-digit CEST code', false);
  // leiauteNFe_v4.00.xsd cBenef: 8 or 10 printable Latin-1 characters without blanks, or SEM CBENEF (docs/fiscal/cbenef.md).
  checkPattern(errors, `${at}.benefit_code`, item.benefit_code, /^([!-\u00ff]{8}|[!-\u00ff]{10}|SEM CBENEF)$/, 'must be the tax-benefit code of the state table: 8 or 10 characters without blanks, or "SEM CBENEF"', false);
  if (item.gtin === '') fail(errors, `${at}.gtin`, 'is empty: give the GTIN, or "SEM GTIN" for a product without one (MOC I03-30, 883)', 'I03-30');
  else if (item.gtin !== undefined && item.gtin !== 'SEM GTIN' && !isValidGtin(item.gtin)) {
    const shaped = typeof item.gtin === 'string' && /^([0-9]{8}|[0-9]{12,14})$/.test(item.gtin);
    fail(errors, `${at}.gtin`, `must be a GTIN-8, 12, 13 or 14 with a valid check digit, or "SEM GTIN"${shaped ? ' (the check digit is wrong: MOC I03-10, 611)' : ''}`, shaped ? 'I03-10' : undefined);
  }
  if (item.origin !== undefined && !(Number.isInteger(item.origin) && item.origin >= 0 && item.origin <= 8)) fail(errors, `${at}.origin`, 'must be an integer from 0 to 8');
  const code = checkIcmsCode(errors, at, item, crt, rules);
  if (code) checkIcmsFields(errors, at, item, code, rules);
  checkFcpRates(errors, at, item);
  checkOtherTaxes(errors, at, item);
  checkReformRules(errors, at, item, rules.document);
  // prod/comb (docs/fiscal/fuel.md): the MOC LA rules need the model, the CFOP and the unit.
  const model = rules.document.includes('NFC-e') ? 65 : 55;
  if (item.fuel !== undefined) checkFuel(errors, at, item.fuel, { model, cfop: item.cfop, unit: item.unit });
  // prod/med and prod/rastro (docs/fiscal/medicines.md): MOC K01-20 binds the NF-e only.
  checkMedicine(errors, at, item.medicine, item.batches, { model, fuel: item.fuel !== undefined });
  const quantityOk = checkNumber(errors, `${at}.quantity`, item.quantity, QUANTITY);
  const priceOk = checkNumber(errors, `${at}.unit_price`, item.unit_price, UNIT_PRICE);
  if (!quantityOk || !priceOk) return undefined;
  const { vProd } = itemValue(item.quantity, item.unit_price);
  if (vProd === 0) {
    fail(errors, `${at}.unit_price`, 'quantity x unit_price rounds to R$ 0.00; the item value must be at least R$ 0.01');
    return undefined;
  }
  if (checkNumber(errors, `${at}.discount`, item.discount, OPTIONAL_MONEY) && toCents(item.discount!) > vProd) {
    fail(errors, `${at}.discount`, 'is larger than the item value (quantity x unit_price) (MOC I17-10, 483)', 'I17-10');
  }
  return vProd;
}
