import type { Migration } from '../migrate.js';

// Search flat at millions of documents. Migration 0023 made the account a lexeme
// of the indexed tsvector ('@acc' & words): the index then yields one account's matches only, but
// it still intersects the posting lists of common words over every account and every year (a word
// pair: ~700,000 entries decoded, 66 ms, at 2M documents), and a search ranks the newest 500 matches
// only after reading every match's row for its created_at (a surname on 1/30 of the notes: 33,000
// heap fetches at 1M notes). Both grew with the data (BENCHMARKS.md: word pair p99 549 ms at 1M).
// Now the indexed tsvector holds each word as the account's word of the document's week
// ('@acc_.../2914/pao', weeks since 1970-01-01 UTC), the week itself ('@acc_.../2914'), and each
// identifier as the account's ('@acc_...#3526...', any week). A search asks for its words in the
// weeks around today first, then in wider windows further back (platform/search/storage/search-candidates.ts),
// stopping once 500 matches are found: each posting list it reads holds one account's week, and it
// reads the rows of the few weeks that hold those matches, whatever the account's size or age.
// tsv itself (positions, weights: ts_rank, phrases, headlines) is unchanged.
// The week is floor(epoch seconds / 604800): epoch seconds do not depend on the session's time zone,
// so the function is immutable whatever date_part's catalogue volatility says. Builtins only: index
// expressions are computed under a restricted search_path (CREATE INDEX, VACUUM). A lexeme over 1,000
// bytes is left out (a tsvector lexeme may not pass 2,047 with the prefix; such a "word" is no word).
// A search asks the index up to 523 times in one statement (a week each), so each ask must be cheap:
// - fastupdate off: GIN's pending list (new entries kept unsorted, up to 4 MB, until a vacuum merges
//   them) is read through by every scan, ~1.3 ms each, 680 ms for one search of a busy account
//   (EXPLAIN ANALYZE); without it an empty week costs ~6 µs, and an insert adds its ~20 entries to the
//   tree itself.
// - COST 10000: the function builds a tsvector; at its default cost the planner preferred running it
//   on every row of a small table over the index, once per week.
// Function bodies never end a line with `;`: the migration runner splits statements there.
export const migration: Migration = {
  id: 26,
  name: "search: the scoped GIN index holds the account's words by week (search_scoped with created_at)",
  sql: `
CREATE FUNCTION search_scoped(text, tsvector, timestamptz) RETURNS tsvector LANGUAGE sql IMMUTABLE COST 10000 AS $$
SELECT array_to_tsvector(ARRAY(
  SELECT '@' || $1 || CASE WHEN l LIKE '#%' THEN l ELSE '/' || wk.w || '/' || l END FROM unnest(tsvector_to_array($2)) AS l WHERE octet_length(l) <= 1000
  UNION ALL SELECT '@' || $1 || '/' || wk.w))
FROM (SELECT floor(extract(epoch FROM $3) / 604800)::integer AS w) wk $$;
CREATE INDEX search_documents_scoped_week ON search_documents USING gin (search_scoped(account_id, tsv, created_at)) WITH (fastupdate = off);
DROP INDEX search_documents_scoped;
DROP FUNCTION search_scoped(text, tsvector);
`,
};
