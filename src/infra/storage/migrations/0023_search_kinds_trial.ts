import type { Migration } from '../migrate.js';

// GET /v1/search over what migration 0021 left out: NF-e received from other companies
// (nfe_received), correction letters (CC-e, the 110110 rows of nfe_events) and inutilizations.
// Same design as 0021: one search_documents row per record, written by an AFTER ROW trigger, so the
// index row commits or rolls back with its record whatever statement writes it (the distribution
// download's page transaction, a CC-e's request and its settlement, the inutilization's insert).
//
// Kinds and where a result points (each a route of the API):
//   nfe_received    /v1/nfe/received/:id   supplier name (learned for typo tolerance), its CNPJ, the access key
//   nfe_correction  /v1/nfe/:note_id       the letter's text (the note's record lists its letters), protocol, key
//   inutilization   /v1/inutilizations/:id justification, protocol, rejection, the range's numbers
// A CC-e ranks as an event does (below its note for the same access key): platform/search.
//
// Billing's trial (README "Trial"): the first move of a production account to a paid plan starts a
// trial; its end is kept on that plan change, so every invoice, computed again from the plan changes
// whenever its job runs, knows which days were free.
// Function bodies never end a line with `;`: the migration runner splits statements there.
export const migration: Migration = {
  id: 23,
  name: 'search: received NF-e, correction letters and inutilizations in search_documents, the GIN index scoped by account; billing: trial end on plan changes',
  sql: `
CREATE FUNCTION search_model_label(integer) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT CASE $1 WHEN 65 THEN 'NFC-e' WHEN 55 THEN 'NF-e' ELSE 'NFS-e' END $$;

-- The access key holds the series (positions 23-25) and the number (26-34) of the note (FACTS 1);
-- read as text without leading zeros, never cast, so an odd key cannot fail the download's transaction.
CREATE FUNCTION search_key_part(text, integer, integer) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT coalesce(nullif(ltrim(substr($1, $2, $3), '0'), ''), '0') $$;
CREATE FUNCTION search_received_doc(r nfe_received) RETURNS TABLE (ref_id text, kind text, account_id text, issuer_id text, note_id text, status text, title text, body text, names text, idents text[], url text, created_at timestamptz) LANGUAGE sql STABLE AS $$
SELECT r.id, 'nfe_received', r.account_id, r.issuer_id, NULL::text, r.situation,
  concat_ws(' - ', 'NF-e recebida nº ' || search_key_part(r.access_key, 26, 9) || ' série ' || search_key_part(r.access_key, 23, 3), r.issuer_name),
  concat_ws(' ', r.issuer_name, r.issuer_cnpj, r.access_key),
  search_names(r.issuer_name),
  search_idents(ARRAY[r.access_key, r.issuer_cnpj, search_key_part(r.access_key, 26, 9)]),
  '/v1/nfe/received/' || r.id, r.created_at
$$;

CREATE FUNCTION search_correction_doc(e nfe_events) RETURNS TABLE (ref_id text, kind text, account_id text, issuer_id text, note_id text, status text, title text, body text, names text, idents text[], url text, created_at timestamptz) LANGUAGE sql STABLE AS $$
SELECT e.id, 'nfe_correction', e.account_id, e.issuer_id, e.note_id, e.status,
  'CC-e ' || e.n_seq || ' - ' || search_label(n),
  concat_ws(' ', e.detail->>'text', e.rejection->>'message', e.protocolo, e.access_key),
  '', search_idents(ARRAY[e.protocolo, e.access_key]),
  '/v1/nfe/' || e.note_id, e.created_at
FROM notes n WHERE n.id = e.note_id AND e.tp_evento = '110110'
$$;

-- A range of up to 100 numbers is indexed number by number (a search for 16 finds 15-17); a larger
-- one by its ends only, so one inutilization never writes thousands of lexemes.
CREATE FUNCTION search_inutilization_doc(i inutilizations) RETURNS TABLE (ref_id text, kind text, account_id text, issuer_id text, note_id text, status text, title text, body text, names text, idents text[], url text, created_at timestamptz) LANGUAGE sql STABLE AS $$
SELECT i.id, 'inutilization', i.account_id, i.issuer_id, NULL::text, i.status,
  'Inutilização ' || search_model_label(i.model) || ' série ' || i.serie || ' nº ' || i.numero_inicial || ' a ' || i.numero_final,
  concat_ws(' ', i.justification, i.rejection->>'message', i.protocolo, i.numero_inicial || ' a ' || i.numero_final),
  '', search_idents(ARRAY[i.protocolo, i.numero_inicial::text, i.numero_final::text] || CASE WHEN i.numero_final - i.numero_inicial < 100 THEN ARRAY(SELECT g::text FROM generate_series(i.numero_inicial, i.numero_final) AS g) ELSE '{}'::text[] END),
  '/v1/inutilizations/' || i.id, i.created_at
$$;

CREATE FUNCTION search_index_received() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO search_documents (ref_id, kind, account_id, issuer_id, note_id, status, title, body, names, idents, url, created_at) SELECT * FROM search_received_doc(NEW) ON CONFLICT (ref_id) DO UPDATE SET status = EXCLUDED.status, title = EXCLUDED.title, body = EXCLUDED.body, names = EXCLUDED.names, idents = EXCLUDED.idents; IF TG_OP = 'INSERT' OR NEW.issuer_name IS DISTINCT FROM OLD.issuer_name THEN PERFORM search_learn(NEW.id); END IF; RETURN NULL; END $$;
CREATE FUNCTION search_index_correction() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO search_documents (ref_id, kind, account_id, issuer_id, note_id, status, title, body, names, idents, url, created_at) SELECT * FROM search_correction_doc(NEW) ON CONFLICT (ref_id) DO UPDATE SET status = EXCLUDED.status, title = EXCLUDED.title, body = EXCLUDED.body, idents = EXCLUDED.idents; RETURN NULL; END $$;
CREATE FUNCTION search_index_inutilization() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO search_documents (ref_id, kind, account_id, issuer_id, note_id, status, title, body, names, idents, url, created_at) SELECT * FROM search_inutilization_doc(NEW) ON CONFLICT (ref_id) DO UPDATE SET status = EXCLUDED.status, title = EXCLUDED.title, body = EXCLUDED.body, idents = EXCLUDED.idents; RETURN NULL; END $$;

CREATE TRIGGER search_index_received AFTER INSERT OR UPDATE OF issuer_name, issuer_cnpj, situation ON nfe_received FOR EACH ROW EXECUTE FUNCTION search_index_received();
CREATE TRIGGER search_index_corrections AFTER INSERT OR UPDATE OF status, protocolo, rejection, detail ON nfe_events FOR EACH ROW WHEN (NEW.tp_evento = '110110') EXECUTE FUNCTION search_index_correction();
CREATE TRIGGER search_index_inutilizations AFTER INSERT OR UPDATE OF status, protocolo, rejection, justification ON inutilizations FOR EACH ROW EXECUTE FUNCTION search_index_inutilization();

-- Backfill: what existed before this migration is searchable at once.
INSERT INTO search_documents (ref_id, kind, account_id, issuer_id, note_id, status, title, body, names, idents, url, created_at) SELECT d.* FROM nfe_received r CROSS JOIN LATERAL search_received_doc(r) d ON CONFLICT (ref_id) DO NOTHING;
INSERT INTO search_documents (ref_id, kind, account_id, issuer_id, note_id, status, title, body, names, idents, url, created_at) SELECT d.* FROM nfe_events e CROSS JOIN LATERAL search_correction_doc(e) d ON CONFLICT (ref_id) DO NOTHING;
INSERT INTO search_documents (ref_id, kind, account_id, issuer_id, note_id, status, title, body, names, idents, url, created_at) SELECT d.* FROM inutilizations i CROSS JOIN LATERAL search_inutilization_doc(i) d ON CONFLICT (ref_id) DO NOTHING;
INSERT INTO search_words (account_id, word) SELECT DISTINCT r.account_id, w FROM nfe_received r, regexp_split_to_table(search_names(r.issuer_name), '[^a-z0-9]+') AS w WHERE length(w) >= 3 ON CONFLICT DO NOTHING;

-- Search scoped by the index itself: the account as one more lexeme ('@acc_...': the text parser never
-- makes a lexeme that starts with '@') of the indexed tsvector, so a search asks the GIN index for
-- '@account' & (the words) and gets this account's matches only. 0021's pair - a GIN over tsv and a
-- btree on account_id - made PostgreSQL AND the word matches of every account with all of this
-- account's documents: ~10 ms per 100,000 documents of the account before a row was read (EXPLAIN
-- ANALYZE, BENCHMARKS.md). Nothing else reads search_documents by account alone or by tsv alone.
CREATE FUNCTION search_scoped(text, tsvector) RETURNS tsvector LANGUAGE sql IMMUTABLE AS $$ SELECT $2 || array_to_tsvector(ARRAY['@' || $1]) $$;
CREATE INDEX search_documents_scoped ON search_documents USING gin (search_scoped(account_id, tsv));
DROP INDEX search_documents_tsv;
DROP INDEX search_documents_account;

ALTER TABLE billing_plan_changes ADD COLUMN trial_ends_at timestamptz;
`,
};
