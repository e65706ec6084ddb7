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
// of one, which outranks words; within a tier a note or issuer (+1) outranks an event naming the same
// number (its protocol is the note's too), then ts_rank and the names' trigram similarity (both 0..1).
const EXACT = 100;
const PREFIX = 10;

/**
 * Identifier tokens as a tsquery: over the '#'-marked identifier lexemes (migration 0021), or plain
 * for ts_headline over the body. Safe to build as text: every token is [a-z0-9]+ (checked again
 * here, so a caller's slip is an empty query, never tsquery syntax).
 */
export function identQuery(idents: readonly string[], marker: '#' | '' = '#'): string | null {
  const terms = idents.filter((t) => /^[a-z0-9]+$/.test(t)).map((t) => `'${marker}${t}'${t.length >= 4 ? ':*' : ''}`);
  return terms.length > 0 ? terms.join(' | ') : null;
}

/** The page of matches, best first; `starting_after` names the previous page's last result. */
export async function searchDocuments(db: Queryable, p: SearchPlan): Promise<SearchRow[]> {
  // The cursor is the (score, created_at, ref_id) of the named result under the same query: the
  // score is recomputed by the same statement from the same rows, so pages neither overlap nor skip.
  const r = await db.query<SearchRow>(
    `WITH q AS (
       SELECT websearch_to_tsquery('search_pt', $2) AS words, $3::text::tsquery AS ids, $4::text[] AS exact,
              search_names($2) AS names, $12::text::tsquery AS marks),
     m AS (
       SELECT s.ref_id, s.kind, s.issuer_id, s.note_id, s.status, s.title, s.body, s.url, s.created_at,
              s.idents && q.exact AS exact_hit, coalesce(s.tsv @@ q.ids, false) AS ident_hit, s.tsv @@ q.words AS word_hit,
              (CASE WHEN s.idents && q.exact THEN ${EXACT} WHEN coalesce(s.tsv @@ q.ids, false) THEN ${PREFIX} ELSE 0 END
                + CASE WHEN s.kind = 'event' THEN 0 ELSE 1 END
                + ts_rank(s.tsv, q.words) + public.word_similarity(q.names, s.names))::float8 AS score
         FROM search_documents s, q
        WHERE s.account_id = $1
          AND (s.tsv @@ q.words OR coalesce(s.tsv @@ q.ids, false) OR q.names OPERATOR(public.<%) s.names)
          AND ($5::text IS NULL OR s.kind = $5)
          AND ($6::text IS NULL OR s.issuer_id = $6)
          AND ($7::text IS NULL OR s.status = $7)
          AND ($8::timestamptz IS NULL OR s.created_at >= $8)
          AND ($9::timestamptz IS NULL OR s.created_at < $9)),
     page AS (
       SELECT * FROM m
        WHERE $10::text IS NULL OR (score, created_at, ref_id) < (SELECT score, created_at, ref_id FROM m WHERE ref_id = $10)
        ORDER BY score DESC, created_at DESC, ref_id DESC
        LIMIT $11)
     SELECT page.ref_id, page.kind, page.issuer_id, page.note_id, page.status, page.title, page.url, page.created_at, page.score,
            CASE WHEN exact_hit THEN 'identifier' WHEN ident_hit THEN 'identifier_prefix' WHEN word_hit THEN 'text' ELSE 'similar' END AS matched,
            ts_headline('search_pt', replace(replace(replace(page.body, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'),
              CASE WHEN q.marks IS NULL THEN q.words ELSE q.words || q.marks END,
              'StartSel=<mark>, StopSel=</mark>, MaxWords=24, MinWords=8, MaxFragments=2, FragmentDelimiter=" … "') AS snippet
       FROM page, q
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
    ],
  );
  return r.rows.map((row) => ({ ...row, score: Number(row.score) }));
}
