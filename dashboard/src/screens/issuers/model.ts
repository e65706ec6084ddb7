import { FiscalGatewayError, type paths } from '../../api/client.js';

export type Issuer = paths['/v1/issuers/{id}']['get']['responses'][200]['content']['application/json'];
export type CreateIssuerBody = NonNullable<paths['/v1/issuers']['post']['requestBody']>['content']['application/json'];
export type AddressBody = NonNullable<CreateIssuerBody['endereco']>;

/** "{days}" in a sentence replaced by its value. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => String(values[k] ?? `{${k}}`));
}

/**
 * The CNPJ check digits, as the gateway checks them (src/kernel/tax-id.ts), 2026 alphanumeric form
 * included: a typo is pointed out before the form is sent. Null when valid, else what is wrong.
 */
export function cnpjProblem(input: string, words: { shape: string; digits: string }): string | null {
  const cnpj = cleanCnpj(input);
  if (!/^[0-9A-Z]{12}[0-9]{2}$/.test(cnpj)) return words.shape;
  if (/^(\d)\1{13}$/.test(cnpj)) return words.digits;
  const values = [...cnpj.slice(0, 12)].map((c) => c.charCodeAt(0) - 48);
  const digit = (vs: number[], weights: number[]) => {
    const r = vs.reduce((acc, v, i) => acc + v * weights[i]!, 0) % 11;
    return r < 2 ? 0 : 11 - r;
  };
  const d1 = digit(values, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = digit([...values, d1], [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return `${d1}${d2}` === cnpj.slice(12) ? null : words.digits;
}

export const cleanCnpj = (value: string) => value.replace(/[.\-/\s]/g, '').toUpperCase();

/** The gateway's field errors (422 `details`) by field name, e.g. `endereco.cep`, for the inputs to show. */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof FiscalGatewayError)) return {};
  return Object.fromEntries(error.details.map((d) => [d.field, d.message]));
}

const DAY_MS = 86_400_000;

/** Whole days from now until `iso` (negative once past). */
export const daysUntil = (iso: string, now = Date.now()) => Math.floor((Date.parse(iso) - now) / DAY_MS);

/** A certificate within this many days of its end is flagged in the list and on the page. */
export const EXPIRY_WARNING_DAYS = 30;
