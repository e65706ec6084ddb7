import type { Queryable } from '../../../infra/storage/db.js';
import type { MatchTexts, SearchPlan } from './search-plan.js';

/** What a result shows, as search_documents keeps it (migration 0021). */
export interface SearchRowFields {
  ref_id: string;
  kind: string;
  issuer_id: string | null;
  note_id: string | null;
  status: string | null;
  title: string;
  snippet: string;
  url: string;
  created_at: Date;
}

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
 * q as PostgreSQL parses it (websearch syntax, stems, stop words), the account's name words
 * (search_words, migration 0021) spelt like a word of q by pg_trgm similarity (what a misspelt name
 * should have been), as tsquery texts, and q as the names are kept (search_names): one round trip,
 * before the probes, which get them as constants (search-candidates.ts).
 */
export async function parseQuery(db: Queryable, p: Pick<SearchPlan, 'accountId' | 'text' | 'idents'>): Promise<MatchTexts> {
  // search_words holds [a-z0-9]+ only (split so at indexing), so the corrected words join as tsquery text.
  const parsed = (await db.query<{ own: string; similar: string; names: string }>(
    `WITH corrected AS (
       SELECT DISTINCT w.word
         FROM (SELECT tok FROM regexp_split_to_table(search_names($2), '[^a-z0-9]+') AS tok WHERE length(tok) >= 3 AND tok ~ '[a-z]' LIMIT ${MAX_TYPO_TOKENS}) t
         JOIN search_words w ON w.account_id = $1 AND w.word OPERATOR(public.%) t.tok AND public.similarity(w.word, t.tok) >= ${TYPO_SIMILARITY}
        ORDER BY w.word LIMIT ${MAX_TYPO_WORDS})
     SELECT websearch_to_tsquery('search_pt', $2)::text AS own,
            coalesce((SELECT to_tsquery('search_pt', string_agg(word, ' | '))::text FROM corrected WHERE word ~ '^[a-z0-9]+$'), '') AS similar,
            search_names($2) AS names`,
    [p.accountId, p.text],
  )).rows[0]!;
  const words = [parsed.own, parsed.similar].filter(Boolean).map((q) => `(${q})`).join(' | ');
  return { words, own: parsed.own, idents: identQuery(p.idents) ?? '', names: parsed.names };
}

/** The display fields of the page's results, with the text around their matches marked (ts_headline). */
export async function searchPageRows(db: Queryable, text: string, match: MatchTexts, idents: readonly string[], ids: readonly string[]): Promise<Map<string, SearchRowFields>> {
  // What ts_headline marks: the words, the corrected names and the identifiers as plain words of the body.
  const marked = [match.words, identQuery(idents, '')].filter(Boolean).map((q) => `(${q})`).join(' | ') || null;
  const r = await db.query<SearchRowFields>(
    `SELECT d.ref_id, d.kind, d.issuer_id, d.note_id, d.status, d.title, d.url, d.created_at,
            ts_headline('search_pt', replace(replace(replace(d.body, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'),
              coalesce($2::text::tsquery, websearch_to_tsquery('search_pt', $1)),
              'StartSel=<mark>, StopSel=</mark>, MaxWords=24, MinWords=8, MaxFragments=2, FragmentDelimiter=" … "') AS snippet
       FROM search_documents d WHERE d.ref_id = ANY($3::text[])`,
    [text, marked, ids],
  );
  return new Map(r.rows.map((row) => [row.ref_id, row]));
}
