// Tax ids of an issuer: CNPJ (numeric and the 2026 alphanumeric form, docs/fiscal/access-key.md#alphanumeric-cnpj), CPF and the state
// registration (IE). The check-digit arithmetic lives in kernel/tax-id.ts; this module adds the IE rule
// and plain-words explanations used by the API's validation errors.
import { cleanTaxId, isAlphanumericCnpj, isValidCnpj, isValidCpf } from '../kernel/tax-id.js';
import { stateRegistrationProblem } from './layout/state-registration.js';

export { cleanTaxId, cnpjCheckDigits, isAlphanumericCnpj, isValidCnpj, isValidCpf } from '../kernel/tax-id.js';

// XSD TIe (emit/IE, PL_009 and PL_010): `[0-9]{2,14}|ISENTO`.
const IE_DIGITS = /^[0-9]{2,14}$/;

/**
 * Why `cnpj` is not a CNPJ, or null. 14 positions: 12 in [0-9A-Z] (RFB IN 2229/2024) then 2 numeric
 * check digits, each character valued ASCII - 48.
 */
export function cnpjProblem(cnpj: string): string | null {
  if (!/^[0-9A-Z]{12}[0-9]{2}$/.test(cnpj)) {
    return 'must be 14 characters without punctuation: 12 digits or capital letters, then 2 check digits';
  }
  if (/^(\d)\1{13}$/.test(cnpj)) return 'is not a real CNPJ (all digits equal)';
  return isValidCnpj(cnpj) ? null : 'has wrong check digits';
}

export function cpfProblem(cpf: string): string | null {
  if (!/^[0-9]{11}$/.test(cpf)) return 'must be 11 digits without punctuation';
  return isValidCpf(cpf) ? null : 'has wrong check digits';
}

/**
 * Why `ie` cannot be the state registration of an NFC-e issuer, or null. The XSD type TIe also admits
 * `ISENTO`, but that is for recipients and exempt NF-e emitters: an NFC-e is an ICMS document, so its
 * emitter is an ICMS taxpayer registered with the state (its IE is what the state accredits to issue
 * NFC-e and generate the CSC), and we refuse `ISENTO` here rather than at the authority.
 */
export function issuerIeProblem(ie: string): string | null {
  if (ie.toUpperCase() === 'ISENTO') return 'ISENTO is not allowed: an NFC-e issuer must have a state registration';
  return IE_DIGITS.test(ie) ? null : 'must be 2 to 14 digits without punctuation';
}

/** Why `ie` (digits, see issuerIeProblem) is not a state registration of `uf`, in words (MOC C17-20, 209). */
export function issuerIeStateProblem(uf: string, ie: string): string | null {
  const problem = stateRegistrationProblem(uf, ie);
  return problem && `${problem}: it is not a valid ${uf} state registration (SEFAZ rejects it with 209, IE do emitente inválida)`;
}

/** True when `value` (punctuation allowed) is a valid CNPJ or CPF. */
export function isValidTaxId(value: string): boolean {
  const clean = cleanTaxId(value);
  return clean.length === 11 ? isValidCpf(clean) : isValidCnpj(clean);
}

/** True when the CNPJ needs layout PL_010 (letters in the root or branch). */
export function needsAlphanumericLayout(cnpj: string): boolean {
  return isAlphanumericCnpj(cnpj);
}
