import { decimalPlaces } from '../../kernel/decimal.js';
import { describeCharacter, toLayoutText, unsupportedCharacters } from './text.js';

// Small checks shared by the request validators. Each pushes plain-language errors naming the field.

export interface FieldError {
  /** Request path, e.g. "items[2].ncm". */
  field: string;
  /** What is wrong and how to fix it, in plain words. */
  message: string;
  /** The MOC rule the error comes from, when one does (e.g. "ZD01-10"). */
  rule?: string;
}

export type Errors = FieldError[];

export function fail(errors: Errors, field: string, message: string): void {
  errors.push({ field, message });
}

/** TString text of min..max characters after whitespace normalization (see text.ts). */
export function checkText(errors: Errors, field: string, value: unknown, min: number, max: number, required = true): void {
  if (value === undefined || value === null) {
    if (required) fail(errors, field, 'is required');
    return;
  }
  if (typeof value !== 'string') return fail(errors, field, 'must be a string');
  const text = toLayoutText(value);
  if (text === null) {
    const bad = unsupportedCharacters(value).slice(0, 5).map(describeCharacter).join(', ');
    return fail(errors, field, `contains characters the fiscal layout cannot carry (${bad}); use Latin letters, digits and common punctuation`);
  }
  if (text.length < min) fail(errors, field, min === 1 ? 'must not be empty' : `must have at least ${min} characters`);
  else if (text.length > max) fail(errors, field, `must have at most ${max} characters (has ${text.length})`);
}

export interface NumberRule {
  places: number;
  /** 'positive' (> 0), 'non-negative' (>= 0). */
  sign: 'positive' | 'non-negative';
  /** Inclusive upper bound. */
  max?: number;
  required?: boolean;
}

export function checkNumber(errors: Errors, field: string, value: unknown, rule: NumberRule): boolean {
  if (value === undefined || value === null) {
    if (rule.required !== false) fail(errors, field, 'is required');
    return false;
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    fail(errors, field, 'must be a number');
    return false;
  }
  if (rule.sign === 'positive' ? value <= 0 : value < 0) {
    fail(errors, field, rule.sign === 'positive' ? 'must be greater than zero' : 'must not be negative');
    return false;
  }
  if (decimalPlaces(value) > rule.places) {
    fail(errors, field, `must have at most ${rule.places} decimal places`);
    return false;
  }
  if (rule.max !== undefined && value > rule.max) {
    fail(errors, field, `must be at most ${rule.max}`);
    return false;
  }
  return true;
}

export const MONEY: NumberRule = { places: 2, sign: 'positive', max: 9_999_999_999_999.99 };
export const OPTIONAL_MONEY: NumberRule = { places: 2, sign: 'non-negative', max: 9_999_999_999_999.99, required: false };
export const PERCENT: NumberRule = { places: 4, sign: 'non-negative', max: 100 };
export const OPTIONAL_PERCENT: NumberRule = { ...PERCENT, required: false };

export function checkPattern(errors: Errors, field: string, value: unknown, pattern: RegExp, message: string, required = true): boolean {
  if (value === undefined || value === null) {
    if (required) fail(errors, field, 'is required');
    return false;
  }
  if (typeof value !== 'string' || !pattern.test(value)) {
    fail(errors, field, message);
    return false;
  }
  return true;
}

/** GS1 check digit for GTIN-8/12/13/14 (cEAN, rejection 611 for an invalid GTIN). */
export function isValidGtin(gtin: string): boolean {
  if (!/^([0-9]{8}|[0-9]{12,14})$/.test(gtin)) return false;
  const digits = [...gtin].map(Number);
  const check = digits.pop()!;
  const total = digits.reverse().reduce((acc, d, i) => acc + d * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (total % 10)) % 10 === check;
}

/** The lines of a recipient's address (TEndereco xLgr, nro, xCpl, xBairro, xMun, CEP, fone) by their request names. */
export function checkAddressLines(
  errors: Errors,
  at: string,
  a: { street: unknown; number: unknown; complement?: unknown; district: unknown; city: unknown; cep?: unknown; phone?: unknown },
): void {
  checkText(errors, `${at}.street`, a.street, 2, 60);
  checkText(errors, `${at}.number`, a.number, 1, 60);
  checkText(errors, `${at}.complement`, a.complement, 1, 60, false);
  checkText(errors, `${at}.district`, a.district, 2, 60);
  checkText(errors, `${at}.city`, a.city, 2, 60);
  checkPattern(errors, `${at}.cep`, a.cep, /^[0-9]{8}$/, 'must be 8 digits', false);
  checkPattern(errors, `${at}.phone`, a.phone, /^[0-9]{6,14}$/, 'must be 6 to 14 digits', false);
}
