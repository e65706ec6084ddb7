import type { Migration } from '../migrate.js';

// GET /v1/search over the recipient's manifestations on NF-e received from other companies (the
// 2102xx rows of nfe_events, docs/fiscal/nfe-model-55.md#recipient-manifestation): an accountant looks for "desconhecimento" or for the
// supplier to see what was answered about its notes, and for the event's protocol. Same design as
// migrations 0021/0023: one search_documents row per event, written by an AFTER ROW trigger in the
// statement that records or settles it, so the row commits or rolls back with the event.
//   nfe_manifestation   /v1/nfe/received/:received_id   the type in words, the supplier, the
//                       justification (210220/210240), the rejection, the protocol and the access key
// The received note's own row stays first for its access key: a manifestation ranks as a correction
// letter does (platform/search).
// Function bodies never end a line with `;`: the migration runner splits statements there.
export const migration: Migration = {
  id: 25,
  name: 'search: the recipient manifestations on received NF-e (nfe_events 2102xx) in search_documents',
  sql: `
-- The types' names as people write them (their descEvento, e2102xx_v1.00.xsd, is the same without accents).
CREATE FUNCTION search_manifestation_label(text) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT CASE $1 WHEN '210200' THEN 'Confirmação da operação' WHEN '210210' THEN 'Ciência da operação' WHEN '210220' THEN 'Desconhecimento da operação' WHEN '210240' THEN 'Operação não realizada' ELSE 'Manifestação ' || $1 END $$;

CREATE FUNCTION search_manifestation_doc(e nfe_events) RETURNS TABLE (ref_id text, kind text, account_id text, issuer_id text, note_id text, status text, title text, body text, names text, idents text[], url text, created_at timestamptz) LANGUAGE sql STABLE AS $$
SELECT e.id, 'nfe_manifestation', e.account_id, e.issuer_id, NULL::text, e.status,
  concat_ws(' - ', search_manifestation_label(e.tp_evento), 'NF-e recebida nº ' || search_key_part(e.access_key, 26, 9) || ' série ' || search_key_part(e.access_key, 23, 3), r.issuer_name),
  concat_ws(' ', search_manifestation_label(e.tp_evento), r.issuer_name, e.detail->>'justification', e.rejection->>'message', e.protocolo, e.access_key),
  search_names(r.issuer_name), search_idents(ARRAY[e.protocolo, e.access_key]),
  '/v1/nfe/received/' || r.id, e.created_at
FROM nfe_received r WHERE r.id = e.detail->>'received_id' AND r.account_id = e.account_id
$$;

CREATE FUNCTION search_index_manifestation() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO search_documents (ref_id, kind, account_id, issuer_id, note_id, status, title, body, names, idents, url, created_at) SELECT * FROM search_manifestation_doc(NEW) ON CONFLICT (ref_id) DO UPDATE SET status = EXCLUDED.status, title = EXCLUDED.title, body = EXCLUDED.body, names = EXCLUDED.names, idents = EXCLUDED.idents; RETURN NULL; END $$;

CREATE TRIGGER search_index_manifestations AFTER INSERT OR UPDATE OF status, protocolo, rejection, detail ON nfe_events FOR EACH ROW WHEN (NEW.tp_evento LIKE '2102%') EXECUTE FUNCTION search_index_manifestation();

-- Backfill: the manifestations recorded before this migration are searchable at once.
INSERT INTO search_documents (ref_id, kind, account_id, issuer_id, note_id, status, title, body, names, idents, url, created_at) SELECT d.* FROM nfe_events e CROSS JOIN LATERAL search_manifestation_doc(e) d WHERE e.tp_evento LIKE '2102%' ON CONFLICT (ref_id) DO NOTHING;
`,
};
