// Field rules shared by event and inutilização requests (tiposBasico_v4.00.xsd, docs/fiscal/events.md, docs/fiscal/inutilizacao.md).

/** A field the caller must fix; the request is not built. */
export interface EventFieldError {
  field: string;
  message: string;
}

/** Thrown by the builders when handed input that the `*Problems` functions refuse (a caller bug). */
export class EventInputError extends Error {
  override readonly name = 'EventInputError';
  constructor(readonly errors: EventFieldError[]) {
    super(`invalid event input: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`);
  }
}

/** TJust = TString (U+0020-U+00FF, no blank at either end) with 15-255 characters. */
export function normalizeJustification(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function justificationProblem(text: string, field = 'xJust'): EventFieldError | null {
  const value = normalizeJustification(text);
  if (value.length < 15 || value.length > 255) return { field, message: 'must have 15 to 255 characters' };
  if (/[^\u0020-\u00ff]/.test(value)) return { field, message: 'has characters outside Latin-1, which the layout does not accept' };
  return null;
}

/** TDateTimeUTC: local date-time with seconds and a whole-hour offset, e.g. 2026-03-10T12:30:00-03:00. */
export const DATE_TIME_UTC = /^20\d{2}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[-+]\d{2}:00$/;
/** TChNFe (PL_010 allows the alphanumeric CNPJ positions 7-18). */
export const ACCESS_KEY = /^[0-9]{6}[0-9A-Z]{12}[0-9]{26}$/;
/** TProt: 15 digits; PL_010 also 17. */
export const PROTOCOL = /^([0-9]{15}|[0-9]{17})$/;
export const CNPJ = /^[0-9A-Z]{12}[0-9]{2}$/;
export const CPF = /^[0-9]{11}$/;
/** TCodUfIBGE: the 27 state codes. */
export const UF_CODES = new Set(['11', '12', '13', '14', '15', '16', '17', '21', '22', '23', '24', '25', '26', '27', '28', '29', '31', '32', '33', '35', '41', '42', '43', '50', '51', '52', '53']);

export function check(errors: EventFieldError[], ok: boolean, field: string, message: string): void {
  if (!ok) errors.push({ field, message });
}
