import type { SaleItem } from './sale-item.js';

// Which ICMS codes an NFC-e issuer may use and what each one needs from the request.

/**
 * Regime normal (CRT 3) CSTs with an NFC-e group. 50/51 are refused: cStat 766/740 (docs/fiscal/nfce-rules.md).
 * 61 (monophase ICMS on fuels charged earlier) since NT 2023.001 added it to N12-30 (docs/fiscal/icms-monophase.md).
 */
export const NFCE_CSTS = ['00', '10', '20', '30', '40', '41', '60', '61', '70', '90'] as const;
/** Simples Nacional (CRT 1, 2, 4) CSOSNs (XSD ICMSSN101-900). */
export const NFCE_CSOSNS = ['101', '102', '103', '201', '202', '203', '300', '400', '500', '900'] as const;

/** Codes whose group carries the issuer's own ICMS (modBC..vICMS). */
export const OWN_ICMS_CODES = new Set(['00', '10', '20', '70']);
/** Codes where own ICMS is optional (written when pICMS is given). */
export const OPTIONAL_OWN_ICMS_CODES = new Set(['90', '900']);
/** Codes whose group requires the ST block. */
export const ST_CODES = new Set(['10', '30', '70', '201', '202', '203']);
/** Codes where the ST block is optional. */
export const OPTIONAL_ST_CODES = new Set(['90', '900']);
/** Codes that need the base reduction pRedBC. */
export const REDUCED_BASE_CODES = new Set(['20', '70']);
/** Codes with the ST-retained-earlier block (optional). */
export const RETAINED_CODES = new Set(['60', '500']);
/** CSOSNs with the Simples credit pCredSN/vCredICMSSN (required for 101 and 201). */
export const CREDIT_CODES = new Set(['101', '201']);

/** The ICMS code the request carries: cst_icms, or its Simples alias csosn. */
export function icmsCode(item: SaleItem): string | undefined {
  return item.cst_icms ?? item.csosn;
}

/** The request field that holds the code (for error messages). */
export function icmsCodeField(item: SaleItem): 'cst_icms' | 'csosn' {
  return item.cst_icms === undefined && item.csosn !== undefined ? 'csosn' : 'cst_icms';
}

export function hasOwnIcms(code: string, item: SaleItem): boolean {
  return OWN_ICMS_CODES.has(code) || (OPTIONAL_OWN_ICMS_CODES.has(code) && item.pICMS !== undefined);
}

export function hasSt(code: string, item: SaleItem): boolean {
  return ST_CODES.has(code) || (OPTIONAL_ST_CODES.has(code) && item.st !== undefined);
}
