import type { Migration } from '../migrate.js';

// GET /v1/search (docs/guides/api.md#search): full text over the account's notes (NFC-e, NF-e,
// NFS-e), issuers and the notes' events (note_history, what GET /v1/<family>/:id/events lists).
// Why one search_documents table written by triggers, rather than generated tsvector columns on each
// table: one query, one GIN index and one ranking serve every kind (a UNION over three tables would
// rank each on its own scale and page awkwardly); an event's document needs its note's account and
// family, which a generated column cannot join; and the words come from several jsonb paths per family.
// Why triggers: a note is written by single-statement CTEs (emission, settlement, contingency, offline
// reception) and by updateNoteIf; a row trigger runs inside each of those statements, so the index
// row is committed or rolled back with its record and can neither lag nor diverge, whatever path
// writes ("the index never lags"). AFTER ROW triggers see the whole statement's rows, so an
// event inserted in the same CTE as its note finds the note.
// Matching (src/platform/search/search.ts): `tsv` holds the words (search_pt: Portuguese stemming on
// unaccented text, so "pao frances" finds "Pão Francês") with weight B (title) and D (body), and the
// identifiers (access keys, CNPJ/CPF, protocols, numbers, external_ref; lowercase letters and digits
// only, so punctuation never matters) as unstemmed lexemes marked '#', found exactly or by prefix
// with `'#3526...':*`. `names` (unaccented, lowercase) feeds search_words, the vocabulary pg_trgm
// corrects a misspelt name against, and the similarity part of the rank.
// Extensions live in schema public and are named with it (public.unaccent, public.word_similarity):
// test runs and deployments may set search_path to another schema. PGlite gets both at creation
// (infra/storage/db.ts). The text search configuration lives in the gateway's schema.
// Function bodies never end a line with `;`: the migration runner splits statements there.
export const migration: Migration = {
  id: 21,
  name: 'search: search_documents kept by triggers on notes, note_history and issuers',
  sql: `
CREATE EXTENSION IF NOT EXISTS unaccent SCHEMA public;
CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public;
CREATE TEXT SEARCH CONFIGURATION search_pt (COPY = pg_catalog.portuguese);
ALTER TEXT SEARCH CONFIGURATION search_pt ALTER MAPPING FOR hword, hword_part, word, asciihword, asciiword, hword_asciipart WITH public.unaccent, pg_catalog.portuguese_stem;

-- Identifiers enter the tsvector marked with '#': the text parser never makes such a lexeme, so an
-- identifier query ('#3526...':*) cannot match a word of the body, nor merge with one.
CREATE FUNCTION search_ident_lexemes(text[]) RETURNS tsvector LANGUAGE sql IMMUTABLE AS $$ SELECT array_to_tsvector(coalesce(array_agg('#' || x), '{}')) FROM unnest($1) AS x $$;

CREATE TABLE search_documents (
  ref_id text PRIMARY KEY,
  kind text NOT NULL,
  account_id text NOT NULL,
  issuer_id text,
  note_id text,
  status text,
  title text NOT NULL,
  body text NOT NULL,
  names text NOT NULL,
  idents text[] NOT NULL,
  url text NOT NULL,
  created_at timestamptz NOT NULL,
  tsv tsvector GENERATED ALWAYS AS (search_ident_lexemes(idents) || setweight(to_tsvector('search_pt'::regconfig, title), 'B') || to_tsvector('search_pt'::regconfig, body)) STORED
);
CREATE INDEX search_documents_tsv ON search_documents USING gin (tsv);

-- Typo tolerance at scale: trigram similarity over each account's vocabulary of name words (distinct,
-- small: customers and companies recur), not over every document's names. The similar words found
-- become an OR text query the tsv index answers (pg_trgm's documented pattern). Words are learned, never
-- forgotten: a stale one only finds no document.
CREATE TABLE search_words (
  account_id text NOT NULL,
  word text NOT NULL,
  PRIMARY KEY (account_id, word)
);
CREATE INDEX search_words_trgm ON search_words USING gin (word public.gin_trgm_ops);
CREATE INDEX search_documents_account ON search_documents (account_id, created_at DESC);

CREATE FUNCTION search_ident(text) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT lower(regexp_replace(coalesce($1, ''), '[^0-9A-Za-z]', '', 'g')) $$;
CREATE FUNCTION search_idents(text[]) RETURNS text[] LANGUAGE sql IMMUTABLE AS $$ SELECT coalesce(array_agg(DISTINCT x), '{}') FROM (SELECT search_ident(v) AS x FROM unnest($1) AS v) t WHERE x <> '' $$;
CREATE FUNCTION search_names(text) RETURNS text LANGUAGE sql STABLE AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, coalesce($1, ''))) $$;
CREATE FUNCTION search_family(integer) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT CASE $1 WHEN 65 THEN 'nfce' WHEN 55 THEN 'nfe' ELSE 'nfse' END $$;
CREATE FUNCTION search_label(notes) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT CASE $1.model WHEN 65 THEN 'NFC-e' WHEN 55 THEN 'NF-e' ELSE 'NFS-e' END || ' nº ' || coalesce($1.nfse_number, $1.number::text) || ' série ' || $1.serie $$;

CREATE FUNCTION search_note_doc(n notes) RETURNS TABLE (ref_id text, kind text, account_id text, issuer_id text, note_id text, status text, title text, body text, names text, idents text[], url text, created_at timestamptz) LANGUAGE sql STABLE AS $$
SELECT n.id, search_family(n.model), n.account_id, n.issuer_id, n.id, n.status,
  concat_ws(' - ', search_label(n), p.party),
  concat_ws(' ', p.parties, d.descriptions, n.request->'service'->>'description', n.external_ref, n.rejection->>'message', n.cancellation->>'reason', n.access_key, n.nfse_key, n.protocolo, p.tax_ids),
  search_names(p.parties),
  search_idents(ARRAY[n.access_key, n.nfse_key, n.protocolo, n.number::text, n.nfse_number, n.external_ref, n.cancellation->>'protocolo'] || p.tax_id_list),
  '/v1/' || search_family(n.model) || '/' || n.id, n.created_at
FROM (SELECT coalesce(n.request->'consumer', n.request->'destinatario', n.request->'tomador')->>'name' AS party,
        concat_ws(' ', n.request->'consumer'->>'name', n.request->'destinatario'->>'name', n.request->'tomador'->>'name', n.request->'intermediario'->>'name') AS parties,
        ARRAY[n.request->'consumer'->>'cpf', n.request->'consumer'->>'cnpj', n.request->'destinatario'->>'cpf', n.request->'destinatario'->>'cnpj', n.request->'tomador'->>'cpf', n.request->'tomador'->>'cnpj', n.request->'intermediario'->>'cpf', n.request->'intermediario'->>'cnpj'] AS tax_id_list,
        concat_ws(' ', n.request->'consumer'->>'cpf', n.request->'consumer'->>'cnpj', n.request->'destinatario'->>'cpf', n.request->'destinatario'->>'cnpj', n.request->'tomador'->>'cpf', n.request->'tomador'->>'cnpj') AS tax_ids) p,
  (SELECT string_agg(coalesce(i->>'description', i->>'xProd'), ' ') AS descriptions
     FROM jsonb_array_elements(CASE WHEN jsonb_typeof(n.request->'items') = 'array' THEN n.request->'items' WHEN jsonb_typeof(n.items) = 'array' THEN n.items ELSE '[]'::jsonb END) AS i) d
$$;

CREATE FUNCTION search_issuer_doc(i issuers) RETURNS TABLE (ref_id text, kind text, account_id text, issuer_id text, note_id text, status text, title text, body text, names text, idents text[], url text, created_at timestamptz) LANGUAGE sql STABLE AS $$
SELECT i.id, 'issuer', i.account_id, i.id, NULL::text, NULL::text,
  coalesce(i.nome_fantasia, i.razao_social),
  concat_ws(' ', i.razao_social, i.nome_fantasia, i.cnpj),
  search_names(concat_ws(' ', i.razao_social, i.nome_fantasia)),
  search_idents(ARRAY[i.cnpj, i.ie, i.nfse->>'municipal_registration']),
  '/v1/issuers/' || i.id, i.created_at
$$;

CREATE FUNCTION search_event_doc(h note_history) RETURNS TABLE (ref_id text, kind text, account_id text, issuer_id text, note_id text, status text, title text, body text, names text, idents text[], url text, created_at timestamptz) LANGUAGE sql STABLE AS $$
SELECT h.id, 'event', n.account_id, n.issuer_id, n.id, h.type,
  concat_ws(' - ', search_label(n), h.type || coalesce(' ' || h.code, '')),
  concat_ws(' ', h.message, h.protocolo),
  '', search_idents(ARRAY[h.protocolo]),
  '/v1/' || search_family(n.model) || '/' || n.id || '/events', h.at
FROM notes n WHERE n.id = h.note_id AND (h.message IS NOT NULL OR h.protocolo IS NOT NULL)
$$;

-- Sorted, so two transactions learning the same new words insert them in one order (no deadlock).
CREATE FUNCTION search_learn(text) RETURNS void LANGUAGE sql AS $$ INSERT INTO search_words (account_id, word) SELECT DISTINCT d.account_id, w FROM search_documents d, regexp_split_to_table(d.names, '[^a-z0-9]+') AS w WHERE d.ref_id = $1 AND length(w) >= 3 ORDER BY 1, 2 ON CONFLICT DO NOTHING $$;

CREATE FUNCTION search_index_note() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO search_documents (ref_id, kind, account_id, issuer_id, note_id, status, title, body, names, idents, url, created_at) SELECT * FROM search_note_doc(NEW) ON CONFLICT (ref_id) DO UPDATE SET status = EXCLUDED.status, title = EXCLUDED.title, body = EXCLUDED.body, names = EXCLUDED.names, idents = EXCLUDED.idents; IF TG_OP = 'INSERT' THEN PERFORM search_learn(NEW.id); ELSIF NEW.request IS DISTINCT FROM OLD.request THEN PERFORM search_learn(NEW.id); END IF; RETURN NULL; END $$;
CREATE FUNCTION search_index_issuer() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF TG_OP = 'DELETE' THEN DELETE FROM search_documents WHERE ref_id = OLD.id; RETURN NULL; END IF; INSERT INTO search_documents (ref_id, kind, account_id, issuer_id, note_id, status, title, body, names, idents, url, created_at) SELECT * FROM search_issuer_doc(NEW) ON CONFLICT (ref_id) DO UPDATE SET title = EXCLUDED.title, body = EXCLUDED.body, names = EXCLUDED.names, idents = EXCLUDED.idents; PERFORM search_learn(NEW.id); RETURN NULL; END $$;
CREATE FUNCTION search_index_event() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO search_documents (ref_id, kind, account_id, issuer_id, note_id, status, title, body, names, idents, url, created_at) SELECT * FROM search_event_doc(NEW) ON CONFLICT (ref_id) DO NOTHING; RETURN NULL; END $$;

-- Only the columns a document is made of wake the note trigger: attempts, locks and receipts do not.
CREATE TRIGGER search_index_notes AFTER INSERT OR UPDATE OF status, number, serie, access_key, external_ref, request, items, protocolo, rejection, cancellation, nfse_key, nfse_number ON notes FOR EACH ROW EXECUTE FUNCTION search_index_note();
CREATE TRIGGER search_index_issuers AFTER INSERT OR DELETE OR UPDATE OF razao_social, nome_fantasia, cnpj, ie, nfse ON issuers FOR EACH ROW EXECUTE FUNCTION search_index_issuer();
CREATE TRIGGER search_index_events AFTER INSERT ON note_history FOR EACH ROW EXECUTE FUNCTION search_index_event();

-- Backfill: what existed before this migration is searchable at once.
INSERT INTO search_documents (ref_id, kind, account_id, issuer_id, note_id, status, title, body, names, idents, url, created_at) SELECT d.* FROM issuers i CROSS JOIN LATERAL search_issuer_doc(i) d;
INSERT INTO search_documents (ref_id, kind, account_id, issuer_id, note_id, status, title, body, names, idents, url, created_at) SELECT d.* FROM notes n CROSS JOIN LATERAL search_note_doc(n) d;
INSERT INTO search_documents (ref_id, kind, account_id, issuer_id, note_id, status, title, body, names, idents, url, created_at) SELECT d.* FROM note_history h CROSS JOIN LATERAL search_event_doc(h) d;
INSERT INTO search_words (account_id, word) SELECT DISTINCT d.account_id, w FROM search_documents d, regexp_split_to_table(d.names, '[^a-z0-9]+') AS w WHERE length(w) >= 3 ON CONFLICT DO NOTHING;
`,
};
