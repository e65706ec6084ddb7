import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FISCAL_ASSETS_DIR } from '../../kernel/paths.js';
import { EPEC_BLOCKED_WITH_KEYS, REJECTION_HINTS } from './rejection-hints.js';

// Turns the authority's cStat/xMotivo into the rejection object of the API (docs/decisions.md#api-conventions):
// { code, message, field, hint }.

export interface ExplainedRejection {
  code: string;
  message: string;
  /** Request field concerned, when one is: "items[2].ncm", "payments", ... */
  field: string | null;
  /** What to fix, in plain words. */
  hint: string;
}

let messages: Map<string, string> | undefined;

/** Official message of a cStat (assets/fiscal/webservices/cstat.json), without the "Rejeição: " prefix. */
export function cStatMessage(cStat: string): string | undefined {
  if (!messages) {
    const list = JSON.parse(readFileSync(join(FISCAL_ASSETS_DIR, 'webservices/cstat.json'), 'utf8')) as Array<{ cod: string; msg: string | null }>;
    // A few entries of the library table carry a null message.
    messages = new Map(list.filter((e) => e.msg).map((e) => [e.cod, e.msg!.trim()]));
  }
  return messages.get(cStat)?.replace(/^Rejei[çc][ãa]o:\s*/i, '');
}

/** "[nItem:3]" in an xMotivo names the item (1-based) the rule failed on. */
function itemIndex(xMotivo: string | undefined): number | undefined {
  const m = /\[nItem:\s*(\d+)\]/i.exec(xMotivo ?? '');
  return m ? Number(m[1]) - 1 : undefined;
}

export function explainRejection(cStat: string | number, xMotivo?: string): ExplainedRejection {
  const code = String(cStat);
  const known = REJECTION_HINTS[code];
  const message = xMotivo?.trim() || cStatMessage(code) || `Authority answered cStat ${code}`;
  let field = known?.field ?? null;
  const index = itemIndex(xMotivo);
  if (field?.startsWith('items[]') && index !== undefined) field = `items[${index}]` + field.slice('items[]'.length);
  else if (field === null && index !== undefined) field = `items[${index}]`;
  let hint = known?.hint ?? 'The authority refused the note for the reason in the message; correct the data and issue a new note.';
  // 142 with the keys of the EPEC pending conciliation (chNFePend, NT 2014.001 3.3 R32), which the gateway writes as
  // "[chNFePend: k1, k2]" after the authority's message (register-epec.ts): the hint names them.
  const pending = code === '142' ? /\[chNFePend: ([0-9, ]+)\]/.exec(message)?.[1] : undefined;
  if (pending) hint = EPEC_BLOCKED_WITH_KEYS.replace('{}', pending);
  return { code, message, field, hint };
}
