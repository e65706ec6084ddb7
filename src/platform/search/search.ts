import { ApiError } from '../../kernel/errors.js';
import { page } from '../../kernel/page.js';
import type { Ports } from '../ports/ports.js';
import { newestFirst, searchCandidates, type Candidate } from './storage/search-candidates.js';
import { parseQuery, searchPageRows, type SearchRowFields } from './storage/search-repository.js';
import type { SearchPlan } from './storage/search-plan.js';

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

// Ranking tiers: an exact identifier (key, CNPJ, protocol, number, external_ref) outranks a prefix
// of one, which outranks words; within a tier each candidate's base (the kind's weight, ts_rank and
// the names' trigram similarity: storage/search-candidates.ts).
const EXACT = 100;
const PREFIX = 10;

export type SearchRow = SearchRowFields & { score: number; matched: 'identifier' | 'identifier_prefix' | 'text' | 'similar' };

/** The candidates best first: tier, then base score, then the newest. */
export function rankCandidates(candidates: readonly Candidate[]): Array<Candidate & { score: number }> {
  return candidates
    .map((c) => ({ ...c, score: (c.exact_hit ? EXACT : c.ident_hit ? PREFIX : 0) + c.base }))
    .sort((a, b) => b.score - a.score || newestFirst(a, b));
}

/** A page of the account's documents matching `q`, best first (docs/guides/api.md "Search"). */
export async function searchAccount(deps: Pick<Ports, 'db' | 'clock'>, accountId: string, query: SearchQuery) {
  const text = query.q.trim();
  if (text.length === 0) throw new ApiError('validation_error', 'q must contain something to search for', [{ field: 'q', message: 'is blank' }]);
  const limit = query.limit ?? 20;
  const plan: SearchPlan = {
    accountId,
    text,
    idents: identTokens(text),
    kind: query.type,
    issuerId: query.issuer_id,
    status: query.status,
    createdGte: query['created_at[gte]'] ? new Date(query['created_at[gte]']) : undefined,
    createdLt: query['created_at[lt]'] ? new Date(query['created_at[lt]']) : undefined,
    now: deps.clock.now(),
  };
  // The candidates (at most RANKED_CANDIDATES, each with what ranks it), ranked here; the cursor is
  // the named result's place in the same ranking of the same candidates, so pages neither overlap
  // nor skip, and an id that is not among them gives an empty page, as the lists do.
  const match = await parseQuery(deps.db, plan);
  const ranked = rankCandidates(await searchCandidates(deps.db, plan, match));
  const from = query.starting_after === undefined ? 0 : ranked.findIndex((c) => c.ref_id === query.starting_after) + 1;
  const slice = from === 0 && query.starting_after !== undefined ? [] : ranked.slice(from, from + limit + 1);
  const rows = slice.length > 0 ? await searchPageRows(deps.db, text, match, plan.idents, slice.map((c) => c.ref_id)) : new Map<string, SearchRowFields>();
  // A row removed between the two statements (an issuer deleted) is left out of the page.
  const found: SearchRow[] = slice.flatMap((c) => {
    const row = rows.get(c.ref_id);
    const matched = c.exact_hit ? 'identifier' : c.ident_hit ? 'identifier_prefix' : c.word_hit ? 'text' : 'similar';
    return row ? [{ ...row, score: c.score, matched } as SearchRow] : [];
  });
  return page(found, limit);
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
