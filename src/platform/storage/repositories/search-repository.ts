import type { Queryable } from '../db.js';
import { searchCandidates, type Candidate } from './search-candidates.js';

/** What one search asks of search_documents (migration 0021), already made safe by the caller. */
export interface SearchPlan {
  accountId: string;
  /** The words, handed to websearch_to_tsquery: any text is valid there, none raises a syntax error. */
  text: string;
  /**
   * Identifier tokens, lowercase letters and digits only (the caller strips the rest): an exact
   * match ranks first; those of 4+ characters also match as a prefix.
   */
  idents: string[];
  /** Name words of the account spelt like words of `text` (similarNameWords): found as words too. */
  similarWords: string[];
  kind?: string | undefined;
  issuerId?: string | undefined;
  status?: string | undefined;
  createdGte?: Date | undefined;
  createdLt?: Date | undefined;
  startingAfter?: string | undefined;
  limit: number;
  /** The gateway's time: the newest matches are looked for in the weeks around it (search-candidates). */
  now: Date;
}

export interface SearchRow {
  ref_id: string;
  kind: string;
  issuer_id: string | null;
  note_id: string | null;
  status: string | null;
  title: string;
  snippet: string;
  url: string;
  created_at: Date;
  score: number;
  matched: 'identifier' | 'identifier_prefix' | 'text' | 'similar';
}

// Ranking tiers: an exact identifier (key, CNPJ, protocol, number, external_ref) outranks a prefix
// of one, which outranks words; below them each candidate's base (search-candidates.ts RANKED).
const EXACT = 100;
const PREFIX = 10;
// Typo tolerance: words of q (3+ letters, at most 8) against the account's name words; a similarity of
// 0.45 takes one wrong, missing or doubled letter in a name of 8+ letters ("Bitencourt" for "Bittencourt").
const MAX_TYPO_TOKENS = 8;
const TYPO_SIMILARITY = 0.45;
const MAX_TYPO_WORDS = 32;

/**
 * Identifier tokens as a tsquery: over the '#'-marked identifier lexemes (migration 0021), or plain
 * for ts_headline over the body. Safe to build as text: every token is [a-z0-9]+ (checked again
 * here, so a caller's slip is an empty query, never tsquery syntax).
 */
export function identQuery(idents: readonly string[], marker: '#' | '' = '#'): string | null {
  const terms = idents.filter((t) => /^[a-z0-9]+$/.test(t)).map((t) => `'${marker}${t}'${t.length >= 4 ? ':*' : ''}`);
  return terms.length > 0 ? terms.join(' | ') : null;
}

/**
 * The account's name words (search_words, migration 0021) spelt like a word of `text`, by pg_trgm
 * similarity: what a misspelt name should have been. Asked before the search itself, so the search's
 * plan sees the corrected words as a constant (an InitPlan made the planner give up the GIN index).
 */
export async function similarNameWords(db: Queryable, accountId: string, text: string): Promise<string[]> {
  const r = await db.query<{ word: string }>(
    `SELECT DISTINCT w.word
       FROM (SELECT tok FROM regexp_split_to_table(search_names($2), '[^a-z0-9]+') AS tok WHERE length(tok) >= 3 AND tok ~ '[a-z]' LIMIT ${MAX_TYPO_TOKENS}) t
       JOIN search_words w ON w.account_id = $1 AND w.word OPERATOR(public.%) t.tok AND public.similarity(w.word, t.tok) >= ${TYPO_SIMILARITY}
      ORDER BY w.word LIMIT ${MAX_TYPO_WORDS}`,
    [accountId, text],
  );
  return r.rows.map((row) => row.word);
}

/** The page of matches, best first; `starting_after` names the previous page's last result. */
export async function searchDocuments(db: Queryable, p: SearchPlan): Promise<SearchRow[]> {
  // 1. q as PostgreSQL parses it (websearch syntax, stems, stop words), in tsquery text form.
  // 2. the candidates (search-candidates.ts): every exact identifier, then the newest matches, at
  //    most RANKED_CANDIDATES, from the GIN index over search_scoped(account_id, tsv, created_at),
  //    the account's words by week (migration 0026), each with what ranks it.
  // 3. ranked and paged here; the page's rows read again by key, with ts_headline for them only.
  // The cursor is the position of the named result in the same ranking of the same candidates, so
  // pages neither overlap nor skip.
  const idents = identQuery(p.idents) ?? '';
  const similar = p.similarWords.filter((w) => /^[a-z0-9]+$/.test(w)).join(' | ') || null;
  const parsed = (await db.query<{ own: string; similar: string; names: string }>(
    `SELECT websearch_to_tsquery('search_pt', $1)::text AS own, coalesce(to_tsquery('search_pt', $2)::text, '') AS similar, search_names($1) AS names`,
    [p.text, similar],
  )).rows[0]!;
  const words = [parsed.own, parsed.similar].filter(Boolean).map((q) => `(${q})`).join(' | ');
  const candidates = await searchCandidates(db, p, { words, own: parsed.own, idents, names: parsed.names });
  const score = (c: Candidate) => (c.exact_hit ? EXACT : c.ident_hit ? PREFIX : 0) + c.base;
  const ranked = candidates
    .map((c) => ({ ...c, score: score(c) }))
    .sort((a, b) => b.score - a.score || b.created_at.getTime() - a.created_at.getTime() || (a.ref_id < b.ref_id ? 1 : a.ref_id > b.ref_id ? -1 : 0));
  const from = p.startingAfter === undefined ? 0 : ranked.findIndex((c) => c.ref_id === p.startingAfter) + 1;
  // An unknown cursor (not among this query's results) gives an empty page, as the lists do.
  const page = from === 0 && p.startingAfter !== undefined ? [] : ranked.slice(from, from + p.limit);
  if (page.length === 0) return [];
  // What ts_headline marks: the words, the corrected names and the identifiers as plain words of the body.
  const marked = [words, identQuery(p.idents, '')].filter(Boolean).map((q) => `(${q})`).join(' | ') || null;
  const r = await db.query<Omit<SearchRow, 'score' | 'matched'>>(
    `SELECT d.ref_id, d.kind, d.issuer_id, d.note_id, d.status, d.title, d.url, d.created_at,
            ts_headline('search_pt', replace(replace(replace(d.body, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'),
              coalesce($2::text::tsquery, websearch_to_tsquery('search_pt', $1)),
              'StartSel=<mark>, StopSel=</mark>, MaxWords=24, MinWords=8, MaxFragments=2, FragmentDelimiter=" … "') AS snippet
       FROM search_documents d WHERE d.ref_id = ANY($3::text[])`,
    [p.text, marked, page.map((c) => c.ref_id)],
  );
  const rows = new Map(r.rows.map((row) => [row.ref_id, row]));
  // A row removed between the two statements (an issuer deleted) is left out of the page.
  return page.flatMap((c) => {
    const row = rows.get(c.ref_id);
    if (!row) return [];
    const matched = c.exact_hit ? 'identifier' : c.ident_hit ? 'identifier_prefix' : c.word_hit ? 'text' : 'similar';
    return [{ ...row, score: c.score, matched } as SearchRow];
  });
}
