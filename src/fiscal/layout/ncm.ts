import { fail, type Errors } from './field-rules.js';
import { NCM_CHAPTERS, NCM_DEFAULT_END, NCM_DEFAULT_START, NCM_LATER_STARTS, NCM_TABLE_DATE } from './ncm-table.js';

// The NCM table (Siscomex "Tabela NCM vigente"; source and date in docs/fiscal/ncm.md) and the MOC
// rules on prod/NCM that it decides: I05-20 (778, NCM inexistente). Pure: the table is a module.

/** MOC I05-10 obs. 3 / I05-20: the code of an item that cannot be classified; I05-20 does not look it up. */
export const NCM_UNCLASSIFIED = '00000000';

let starts: Map<string, string> | undefined;

/** 8-digit code -> Data_Inicio (ISO date), built once from the compact table. */
function table(): Map<string, string> {
  if (starts) return starts;
  starts = new Map();
  for (const line of NCM_CHAPTERS) {
    const [chapter, ...headings] = line.split(' ');
    for (const h of headings) {
      for (let i = 2; i < h.length; i += 4) starts.set(chapter! + h.slice(0, 2) + h.slice(i, i + 4), NCM_DEFAULT_START);
    }
  }
  for (const [start, codes] of Object.entries(NCM_LATER_STARTS)) for (const code of codes.split(' ')) starts.set(code, start);
  return starts;
}

/**
 * Whether the table can judge a document of `date`: it starts with the NCM edition in force from
 * NCM_DEFAULT_START (docs/fiscal/ncm.md) and keeps no earlier history, so an older document's
 * NCM cannot be said not to exist (the simulator must not be stricter than the authority was).
 */
export const ncmTableCovers = (date: string): boolean => date >= NCM_DEFAULT_START;

/** How many 8-digit codes the table holds (docs/fiscal/ncm.md gives the figure). */
export const ncmCount = () => table().size;

/**
 * True when `ncm` is an 8-digit code of the table valid on `date` (YYYY-MM-DD; Data_Inicio <= date <=
 * Data_Fim). Without a date, the table's own date. The table is the current one: a code that ended
 * before NCM_TABLE_DATE is not in it, so a date before the table's knows only the codes still in force.
 */
export function isNcmValid(ncm: string, date: string = NCM_TABLE_DATE): boolean {
  const start = table().get(ncm);
  return start !== undefined && start <= date && date <= NCM_DEFAULT_END;
}

/**
 * MOC I05-20 (778): an 8-digit NCM other than 00000000 must exist in the table. Null when it does
 * (or is 00000000, which that rule leaves to I05-10 obs. 3); otherwise why not, in words.
 */
export function ncmProblem(ncm: string, date?: string): string | null {
  if (ncm === NCM_UNCLASSIFIED || isNcmValid(ncm, date)) return null;
  const chapterKnown = [...table().keys()].some((c) => c.startsWith(ncm.slice(0, 4)));
  const hint = chapterKnown ? `heading ${ncm.slice(0, 4)} exists but not this subitem` : `no heading ${ncm.slice(0, 4)} exists`;
  return `${ncm} is not in the NCM table in force (${hint}; see the Siscomex classification); SEFAZ rejects it with 778, NCM inexistente`;
}

/** The gateway's side of MOC I05-20: a field error with the rule id when the code is not in the table. */
export function checkNcmExists(errors: Errors, field: string, ncm: string, date?: string): void {
  const problem = ncmProblem(ncm, date);
  if (problem) fail(errors, field, problem, 'I05-20');
}
