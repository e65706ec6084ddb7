import { explainRejection } from '../../../fiscal/cstat/explain-rejection.js';

/** The rejection object of a note (docs/decisions.md#api-conventions): code, the authority's message, the request field and a hint. */
export function explainAuthorityRejection(cStat: number, xMotivo: string): { code: string; message: string; field: string | null; hint: string | null } {
  const e = explainRejection(cStat, xMotivo);
  return { code: String(e.code), message: e.message, field: e.field ?? null, hint: e.hint ?? null };
}
