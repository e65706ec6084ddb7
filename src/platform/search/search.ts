import { ApiError } from '../../kernel/errors.js';
import { page } from '../../kernel/page.js';
import type { Ports } from '../ports/ports.js';
import { searchDocuments, similarNameWords, type SearchRow } from '../storage/repositories/search-repository.js';

/** What a result is (http/schemas/search.ts lists the same). */
export type SearchKind = 'nfce' | 'nfe' | 'nfse' | 'issuer' | 'event' | 'nfe_received' | 'nfe_correction' | 'nfe_manifestation' | 'inutilization';

/** GET /v1/search's parameters as the route validated them (schema: http/schemas/search.ts). */
export interface SearchQuery {
  q: string;
  type?: SearchKind | undefined;
  issuer_id?: string | undefined;
  status?: string | undefined;
  'created_at[gte]'?: string | undefined;
  'created_at[lt]'?: string | undefined;
  limit?: number | undefined;
  starting_after?: string | undefined;
}

// A query of 200 characters holds at most ~100 tokens; identifiers past a dozen add nothing but work.
const MAX_IDENTS = 12;

/**
 * The identifier forms of a query: each whitespace-separated token and the whole query, kept to
 * ASCII letters and digits and lowercased, as migration 0021's search_ident() stores them. So
 * "12.345.678/0001-90", "12345678000190" and "12 345 678 0001 90" are one CNPJ. A token without a
 * digit counts only as a whole query (an external_ref such as "pedido-abc"), never as a prefix of
 * an identifier, so ordinary words do not drag in every key.
 */
export function identTokens(q: string): string[] {
  const norm = (s: string) => s.replace(/[^0-9A-Za-z]/g, '').toLowerCase();
  const tokens = q.split(/\s+/).map(norm).filter((t) => t.length > 0 && /[0-9]/.test(t));
  const whole = norm(q);
  const all = whole.length >= 2 ? [whole, ...tokens] : tokens;
  // 60: longer than any key (44 digits, NFS-e 50, DPS Id 45 characters) or external_ref we store.
  return [...new Set(all.filter((t) => t.length <= 60))].slice(0, MAX_IDENTS);
}

/** A page of the account's documents matching `q`, best first (README "Search"). */
export async function searchAccount(deps: Pick<Ports, 'db' | 'clock'>, accountId: string, query: SearchQuery) {
  const text = query.q.trim();
  if (text.length === 0) throw new ApiError('validation_error', 'q must contain something to search for', [{ field: 'q', message: 'is blank' }]);
  const limit = query.limit ?? 20;
  const rows = await searchDocuments(deps.db, {
    accountId,
    text,
    idents: identTokens(text),
    similarWords: await similarNameWords(deps.db, accountId, text),
    kind: query.type,
    issuerId: query.issuer_id,
    status: query.status,
    createdGte: query['created_at[gte]'] ? new Date(query['created_at[gte]']) : undefined,
    createdLt: query['created_at[lt]'] ? new Date(query['created_at[lt]']) : undefined,
    startingAfter: query.starting_after,
    limit: limit + 1,
    now: deps.clock.now(),
  });
  return page(rows, limit);
}

export const presentSearchResult = (r: SearchRow) => ({
  object: 'search_result' as const,
  type: r.kind as SearchKind,
  id: r.ref_id,
  title: r.title,
  snippet: r.snippet,
  url: r.url,
  matched: r.matched,
  score: r.score,
  issuer_id: r.issuer_id,
  note_id: r.note_id,
  status: r.status,
  created_at: r.created_at.toISOString(),
});
