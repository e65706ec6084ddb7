import type { Migration } from '../migrate.js';

// The search index's cost per note, with the same index. Every note writes its search document twice
// (emission, then settlement) and one more per history line (migration 0021), and a CPU profile of
// PostgreSQL (perf, BENCHMARKS.md "Cost per note") put most of that time not in the GIN index but in
// parsing and planning SQL: a LANGUAGE sql function that PostgreSQL cannot inline is parsed and
// planned again on every statement that calls it (functions.c, fmgr_sql: its plan lives only as long
// as the calling statement), and each document called four of them - search_scoped (the index
// expression, migration 0026), search_ident_lexemes (the generated tsv), search_idents and, for a note,
// search_learn. PL/pgSQL keeps its plans for the session, so the same bodies move to it; the loops
// over lexemes need no statement at all. Each returns what the SQL body returned, for every input
// (search_scoped and search_ident_lexemes are index and generated-column expressions: the stored
// values and the index stay valid, nothing is recomputed; test: 0051_search_functions_plpgsql.test.ts).
// search_scoped keeps to builtins and COST 10000 (migration 0026: index expressions run under a
// restricted search_path; the planner must keep preferring the index).
// search_label was declared IMMUTABLE while `text || integer` is only STABLE (anytextcat), so PostgreSQL
// refused to inline it (an inlined body may not be more volatile than its declaration) and ran it as a
// SQL function, parsed per call, in every note and event document: declared STABLE, it is inlined
// into search_note_doc, search_event_doc and search_correction_doc, which are STABLE themselves.
// Function bodies never end a line with `;`: the migration runner splits statements there.
export const migration: Migration = {
  id: 51,
  name: 'search: the per-document functions in PL/pgSQL (plans kept per session), search_label STABLE so it is inlined',
  sql: `
CREATE OR REPLACE FUNCTION search_scoped(text, tsvector, timestamptz) RETURNS tsvector LANGUAGE plpgsql IMMUTABLE COST 10000 AS $$ DECLARE w text := floor(extract(epoch FROM $3) / 604800)::integer::text; lexemes text[] := ARRAY['@' || $1 || '/' || w]; l text; BEGIN FOREACH l IN ARRAY coalesce(tsvector_to_array($2), '{}') LOOP IF octet_length(l) <= 1000 THEN lexemes := lexemes || ('@' || $1 || CASE WHEN l LIKE '#%' THEN l ELSE '/' || w || '/' || l END); END IF; END LOOP; RETURN array_to_tsvector(lexemes); END $$;
CREATE OR REPLACE FUNCTION search_ident_lexemes(text[]) RETURNS tsvector LANGUAGE plpgsql IMMUTABLE AS $$ DECLARE marked text[] := '{}'; x text; BEGIN FOREACH x IN ARRAY coalesce($1, '{}') LOOP marked := marked || ('#' || x); END LOOP; RETURN array_to_tsvector(marked); END $$;
CREATE OR REPLACE FUNCTION search_idents(text[]) RETURNS text[] LANGUAGE plpgsql IMMUTABLE AS $$ BEGIN RETURN (SELECT coalesce(array_agg(DISTINCT x), '{}') FROM (SELECT search_ident(v) AS x FROM unnest($1) AS v) t WHERE x <> ''); END $$;
CREATE OR REPLACE FUNCTION search_learn(text) RETURNS void LANGUAGE plpgsql AS $$ BEGIN INSERT INTO search_words (account_id, word) SELECT DISTINCT d.account_id, w FROM search_documents d, regexp_split_to_table(d.names, '[^a-z0-9]+') AS w WHERE d.ref_id = $1 AND length(w) >= 3 ORDER BY 1, 2 ON CONFLICT DO NOTHING; END $$;
ALTER FUNCTION search_label(notes) STABLE;
`,
};
