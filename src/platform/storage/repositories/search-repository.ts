import type { Queryable } from '../db.js';

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
// of one, which outranks words; within a tier a record (+1) outranks a correction letter or a manifestation (+0.5), which
// outranks a history event naming the same number (its access key or protocol is the note's too), then ts_rank and the names' trigram similarity (both 0..1).
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

/**
 * How many matches are ranked: the exact identifier hits, then the newest. Past a few hundred, the
 * order among word matches is mostly their age anyway (their ts_rank differs little), while ranking
 * every match of a common word costs in proportion to the account's size (bench/search-scale).
 */
export const RANKED_CANDIDATES = 500;

/** The tsquery of the account's lexeme in search_scoped (migration 0023): ids are [A-Za-z0-9_] (kernel/ids). */
function accountLexeme(accountId: string): string {
  if (!/^[A-Za-z0-9_]+$/.test(accountId)) throw new Error(`unexpected account id ${accountId}`);
  return `'@${accountId}'`;
}

// One tsquery (words | identifiers | corrected names); an absent part stands in as the words again.
const MATCH = `(websearch_to_tsquery('search_pt', $2) || coalesce($3::text::tsquery, websearch_to_tsquery('search_pt', $2))
                || coalesce(to_tsquery('search_pt', $13), websearch_to_tsquery('search_pt', $2)))`;

/** The page of matches, best first; `starting_after` names the previous page's last result. */
export async function searchDocuments(db: Queryable, p: SearchPlan): Promise<SearchRow[]> {
  // Three steps, so the work is bounded whatever the account's size:
  //  c: the matches, from the GIN index over search_scoped(account_id, tsv) (migration 0023): the
  //     account is a lexeme of the indexed tsvector, so the index yields this account's matches only
  //     (a btree on account_id ANDed with a tsv index read all of the account's entries, ~10 ms per
  //     100,000 documents). Only RANKED_CANDIDATES of them go on: exact identifiers first, then the
  //     newest; c keeps their ids only, so sorting thousands of matches moves narrow rows.
  //  m: those read again by primary key and ranked (ts_rank, trigram similarity of the names).
  //  page: the page, and ts_headline for its rows only.
  // The cursor is the (score, created_at, ref_id) of the named result under the same query: the
  // score is recomputed by the same statement from the same rows, so pages neither overlap nor skip.
  // The leading comment keeps this text out of db.ts's named (prepared) statements: an unnamed one
  // is planned at each call with its parameters, so the words' selectivity is known.
  const r = await db.query<SearchRow>(
    `/* search: planned per call */
     WITH c AS MATERIALIZED (
       SELECT s.ref_id, s.created_at, s.idents && $4::text[] AS exact_hit
         FROM search_documents s
        WHERE search_scoped(s.account_id, s.tsv) @@ ($14::text::tsquery && ${MATCH})
          -- An empty match (only stop words) would leave the account lexeme alone, matching everything.
          AND numnode(${MATCH}) > 0
          AND s.account_id = $1
          AND ($5::text IS NULL OR s.kind = $5)
          AND ($6::text IS NULL OR s.issuer_id = $6)
          AND ($7::text IS NULL OR s.status = $7)
          AND ($8::timestamptz IS NULL OR s.created_at >= $8)
          AND ($9::timestamptz IS NULL OR s.created_at < $9)
        ORDER BY exact_hit DESC, s.created_at DESC, s.ref_id DESC
        LIMIT ${RANKED_CANDIDATES}),
     m AS (
       SELECT d.ref_id, d.kind, d.issuer_id, d.note_id, d.status, d.title, d.body, d.url, d.created_at, c.exact_hit,
              coalesce(d.tsv @@ $3::text::tsquery, false) AS ident_hit, d.tsv @@ websearch_to_tsquery('search_pt', $2) AS word_hit,
              (CASE WHEN c.exact_hit THEN ${EXACT} WHEN coalesce(d.tsv @@ $3::text::tsquery, false) THEN ${PREFIX} ELSE 0 END
                + CASE d.kind WHEN 'event' THEN 0 WHEN 'nfe_correction' THEN 0.5 WHEN 'nfe_manifestation' THEN 0.5 ELSE 1 END
                -- search_names is STABLE (unaccent): a sub-select computes it once, not once per candidate.
                + ts_rank(d.tsv, websearch_to_tsquery('search_pt', $2)) + public.word_similarity((SELECT search_names($2)), d.names))::float8 AS score
         FROM c JOIN search_documents d ON d.ref_id = c.ref_id),
     page AS (
       SELECT * FROM m
        WHERE $10::text IS NULL OR (score, created_at, ref_id) < (SELECT score, created_at, ref_id FROM m WHERE ref_id = $10)
        ORDER BY score DESC, created_at DESC, ref_id DESC
        LIMIT $11)
     SELECT page.ref_id, page.kind, page.issuer_id, page.note_id, page.status, page.title, page.url, page.created_at, page.score,
            CASE WHEN exact_hit THEN 'identifier' WHEN ident_hit THEN 'identifier_prefix' WHEN word_hit THEN 'text' ELSE 'similar' END AS matched,
            ts_headline('search_pt', replace(replace(replace(page.body, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'),
              websearch_to_tsquery('search_pt', $2) || coalesce($12::text::tsquery, websearch_to_tsquery('search_pt', $2))
                || coalesce(to_tsquery('search_pt', $13), websearch_to_tsquery('search_pt', $2)),
              'StartSel=<mark>, StopSel=</mark>, MaxWords=24, MinWords=8, MaxFragments=2, FragmentDelimiter=" … "') AS snippet
       FROM page
      ORDER BY page.score DESC, page.created_at DESC, page.ref_id DESC`,
    [
      p.accountId,
      p.text,
      identQuery(p.idents),
      p.idents,
      p.kind ?? null,
      p.issuerId ?? null,
      p.status ?? null,
      p.createdGte ?? null,
      p.createdLt ?? null,
      p.startingAfter ?? null,
      p.limit,
      identQuery(p.idents, ''),
      p.similarWords.filter((w) => /^[a-z0-9]+$/.test(w)).join(' | ') || null,
      accountLexeme(p.accountId),
    ],
  );
  return r.rows.map((row) => ({ ...row, score: Number(row.score) }));
}
