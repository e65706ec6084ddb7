import type { Queryable } from '../../../infra/storage/db.js';
import type { MatchTexts, SearchPlan } from './search-plan.js';

/**
 * How many matches are ranked: the exact identifier hits, then the newest. Past a few hundred, the
 * order among word matches is mostly their age anyway (their ts_rank differs little), while ranking
 * every match of a common word costs in proportion to the account's size (bench/search-scale).
 */
export const RANKED_CANDIDATES = 500;

/** A match, with what ranks it (platform/search's tiers) computed from its row as the probe read it. */
export interface Candidate {
  ref_id: string;
  created_at: Date;
  exact_hit: boolean;
  /** An identifier of it matched by prefix (or exactly). */
  ident_hit: boolean;
  /** Its words match q's own (not only a corrected name). */
  word_hit: boolean;
  /** The kind's weight + ts_rank + the names' trigram similarity: the score below the identifier tiers. */
  base: number;
}

// A document's week, as migration 0026's search_scoped() computes it: floor(epoch seconds / 604800).
const WEEK_MS = 604_800_000;
export const weekOf = (at: Date): number => Math.floor(at.getTime() / WEEK_MS);

/** How far back words are looked for: ten years of weeks (fiscal records are kept five). */
export const HORIZON_WEEKS = 522;

/** The account's lexemes in search_scoped (migration 0026): ids are [A-Za-z0-9_] (kernel/ids). */
function accountPrefix(accountId: string): string {
  if (!/^[A-Za-z0-9_]+$/.test(accountId)) throw new Error(`unexpected account id ${accountId}`);
  return `@${accountId}`;
}

// A quoted lexeme of a tsquery's text form ('' stands for a quote inside it).
const LEXEME = /'((?:[^']|'')+)'/g;

// How many weeks each probe of the words asks for, newest first: single weeks while matches are
// likely dense (an account of millions fills 500 within a few), then wider, so a rare word reaches
// ten years back in 27 probes rather than 523; at most 32 weeks, whose matches are all read at once.
const CHUNKS = [1, 1, 1, 1, 2, 2, 4, 4, 8, 8, 16, 16];
const WIDEST = 32;

/**
 * The tsquery texts the words probe asks the index, newest first, from `newest` down to `oldest`
 * weeks in CHUNKS: for each week of a chunk, the account's week lexeme and the words as that week's
 * lexemes ('@acc/2914/pao'). `words` is a tsquery text from PostgreSQL (websearch_to_tsquery) whose
 * lexemes are rewritten, never re-parsed.
 */
export function weekQueries(accountId: string, words: string, oldest: number, newest: number): string[] {
  const acc = accountPrefix(accountId);
  const out: string[] = [];
  for (let w = newest, i = 0; w >= oldest; i++) {
    const weeks: string[] = [];
    for (let n = CHUNKS[i] ?? WIDEST; n > 0 && w >= oldest; n--, w--) weeks.push(`('${acc}/${w}' & (${words.replace(LEXEME, `'${acc}/${w}/$1'`)}))`);
    out.push(weeks.join(' | '));
  }
  return out;
}

/** The identifiers' tsquery text (identQuery: '#x':* | '#y') as the account's identifier lexemes, of any week. */
export function identifierQuery(accountId: string, idents: string): string {
  const acc = accountPrefix(accountId);
  return idents.replace(LEXEME, (_m, l: string) => `'${acc}${l}'`);
}

const FILTERS = `s.account_id = $1
        AND ($2::text IS NULL OR s.kind = $2)
        AND ($3::text IS NULL OR s.issuer_id = $3)
        AND ($4::text IS NULL OR s.status = $4)
        AND ($5::timestamptz IS NULL OR s.created_at >= $5)
        AND ($6::timestamptz IS NULL OR s.created_at < $6)`;
const filterParams = (p: SearchPlan) => [p.accountId, p.kind ?? null, p.issuerId ?? null, p.status ?? null, p.createdGte ?? null, p.createdLt ?? null];

// The leading comments keep these texts out of db.ts's named (prepared) statements: an unnamed one
// is planned at each call with its parameters, so the lexemes' selectivity is known.
// Both probes share $1-$6 (FILTERS) and $7-$11: $7 the probe's tsquery texts, $8 the identifiers (an
// exact hit ranks first), $9 the words' tsquery text (websearch_to_tsquery of q), $10 the
// identifiers' (identQuery, or null), $11 q's names (search_names(q)) for the trigram similarity.
// Within a tier a record (+1) outranks a correction letter or a manifestation (+0.5), which outranks
// a history event naming the same number (its access key or protocol is the note's too); then
// ts_rank and the names' trigram similarity (both 0..1). Computed on the rows the LIMIT lets out
// only (x): scoring every match a week's sort reads cost as much again as the probe itself.
const RANKED = `x.ref_id, x.created_at, x.idents && $8::text[] AS exact_hit,
            coalesce(x.tsv @@ $10::text::tsquery, false) AS ident_hit, coalesce(x.tsv @@ $9::text::tsquery, false) AS word_hit,
            (CASE x.kind WHEN 'event' THEN 0 WHEN 'nfe_correction' THEN 0.5 WHEN 'nfe_manifestation' THEN 0.5 ELSE 1 END
              + coalesce(ts_rank(x.tsv, $9::text::tsquery), 0) + public.word_similarity($11, x.names))::float8 AS base`;
const ROW = 's.ref_id, s.created_at, s.idents, s.tsv, s.names, s.kind';

// The identifiers, exactly or by prefix ($7: identifierQuery), of any age: every exact hit first,
// then the newest.
const IDENTIFIER_PROBE = `/* search: planned per call */
     SELECT ${RANKED}
       FROM (SELECT ${ROW}
               FROM search_documents s
              WHERE search_scoped(s.account_id, s.tsv, s.created_at) @@ $7::text::tsquery
                AND ${FILTERS}
              ORDER BY s.idents && $8::text[] DESC, s.created_at DESC, s.ref_id DESC
              LIMIT ${RANKED_CANDIDATES}) x`;

// The words, weeks by weeks ($7: weekQueries, newest first). The nested loop runs the inner probe
// for one chunk of weeks at a time, in the array's order, and the LIMITs stop it once enough rows
// came out: a chunk without a match costs one index probe (~15 µs), and only the rows of the chunks
// that hold the newest matches are read. $12: the whole match over the document's own tsvector when
// the words hold a phrase (the indexed lexemes have no positions), else null. $13: how many rows
// holding the words are read at most: RANKED_CANDIDATES without a phrase (each is a match), and
// PHRASE_SCAN with one, whose words may be in every note but side by side in none (such
// searches read, and rechecked, every note of ten years, on the event loop's thread with PGlite).
const WORDS_PROBE = `/* search: planned per call */
     SELECT ${RANKED}
       FROM (SELECT y.* FROM (
               SELECT x.*
                 FROM unnest($7::text[]) AS w (q)
                CROSS JOIN LATERAL (
                  SELECT ${ROW}
                    FROM search_documents s
                   WHERE search_scoped(s.account_id, s.tsv, s.created_at) @@ w.q::tsquery
                     AND ${FILTERS}
                   ORDER BY s.created_at DESC, s.ref_id DESC
                   LIMIT $13) x
                LIMIT $13) y
              WHERE $12::text IS NULL OR y.tsv @@ $12::text::tsquery
              LIMIT ${RANKED_CANDIDATES}) x`;

/**
 * A phrase is looked for among the newest PHRASE_SCAN documents holding all its words (README
 * Search): past them a phrase search stops, its cost bounded whatever the account holds.
 */
export const PHRASE_SCAN = 2000;

/**
 * The matches that go on to be ranked, at most RANKED_CANDIDATES: every exact identifier, then the
 * newest matches of the identifiers (by prefix too) and of the words. Identifiers are asked of the
 * account's identifier lexemes, whatever their age. Words are asked week by week, newest first, from
 * the week after `now` back HORIZON_WEEKS (or the created_at filters' weeks), in one statement that
 * stops at the 500th match: a common word in an account of millions reads the rows of the few weeks
 * that hold its newest matches, not every match (each one read is a heap fetch: the 33,000 notes of
 * one surname at 1M notes took ~100 ms, BENCHMARKS.md). The result is the one a single "newest 500"
 * statement over every week would give.
 */
export async function searchCandidates(db: Queryable, p: SearchPlan, match: MatchTexts): Promise<Candidate[]> {
  const found = new Map<string, Candidate>();
  const take = (rows: Candidate[]) => {
    for (const r of rows) if (!found.has(r.ref_id)) found.set(r.ref_id, { ...r, base: Number(r.base) });
  };
  const ranking = [p.idents, match.own || null, match.idents || null, match.names];
  // The two probes are independent: each on its own connection of the pool, at once.
  const probes: Array<Promise<Candidate[]>> = [];
  if (match.idents) probes.push(db.query<Candidate>(IDENTIFIER_PROBE, [...filterParams(p), identifierQuery(p.accountId, match.idents), ...ranking]).then((r) => r.rows));
  if (match.words) {
    const now = weekOf(p.now);
    const newest = Math.min(now + 1, p.createdLt ? weekOf(new Date(p.createdLt.getTime() - 1)) : Infinity);
    const oldest = Math.max(now - HORIZON_WEEKS, p.createdGte ? weekOf(p.createdGte) : -Infinity);
    // A phrase ('a' <-> 'b') needs positions, which the indexed lexemes lack: the index is asked for
    // both words, and the document's own tsvector for the phrase.
    const phrase = /<(?:-|\d+)>/g;
    const recheck = phrase.test(match.words) ? [match.words, match.idents].filter(Boolean).map((q) => `(${q})`).join(' | ') : null;
    if (newest >= oldest) {
      const weeks = weekQueries(p.accountId, match.words.replace(phrase, '&'), oldest, newest);
      probes.push(db.query<Candidate>(WORDS_PROBE, [...filterParams(p), weeks, ...ranking, recheck, recheck ? PHRASE_SCAN : RANKED_CANDIDATES]).then((r) => r.rows));
    }
  }
  for (const rows of await Promise.all(probes)) take(rows);
  // Every exact hit, then the newest: the same cut a single "newest 500" statement would make.
  return [...found.values()].sort((a, b) => Number(b.exact_hit) - Number(a.exact_hit) || newestFirst(a, b)).slice(0, RANKED_CANDIDATES);
}

/** created_at descending, then ref_id descending (code units: ids are [A-Za-z0-9_]). */
export function newestFirst(a: { created_at: Date; ref_id: string }, b: { created_at: Date; ref_id: string }): number {
  return b.created_at.getTime() - a.created_at.getTime() || (a.ref_id < b.ref_id ? 1 : a.ref_id > b.ref_id ? -1 : 0);
}
