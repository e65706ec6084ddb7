import type { Migration } from '../migrate.js';

// NF-e (model 55) notes live beside the NFC-e ones in nfce_notes (its `model` column was there from
// the start: numbering, settlement and history are one core). A model-55 note has no QR code, may be
// authorized asynchronously (the lot's receipt, nRec, is kept so a crashed worker polls it instead
// of sending again), and carries events of its own: correction letters (110110) and the
// recipient's manifestation (2102xx) on documents received from other companies.
export const migration: Migration = {
  id: 14,
  name: 'nfe: model-55 notes, asynchronous receipts, events, received documents',
  sql: `
ALTER TABLE nfce_notes ALTER COLUMN qrcode_url DROP NOT NULL;
ALTER TABLE nfce_notes ALTER COLUMN url_chave DROP NOT NULL;
ALTER TABLE nfce_notes ADD COLUMN receipt text;
-- CC-e (110110): the consolidated current text and the letters sent, as GET /v1/nfe/:id shows them.
ALTER TABLE nfce_notes ADD COLUMN corrections jsonb;

CREATE TABLE nfe_events (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  issuer_id text NOT NULL REFERENCES issuers(id),
  access_key text NOT NULL,
  note_id text REFERENCES nfce_notes(id),
  tp_evento text NOT NULL,
  n_seq integer NOT NULL,
  status text NOT NULL,
  detail jsonb NOT NULL,
  event_xml text NOT NULL,
  proc_xml text,
  protocolo text,
  rejection jsonb,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX nfe_events_key_idx ON nfe_events (access_key, tp_evento, n_seq);
CREATE INDEX nfe_events_note_idx ON nfe_events (note_id, created_at);
-- One live event per key, type and sequence: a refused one frees its sequence number.
CREATE UNIQUE INDEX nfe_events_live_seq ON nfe_events (issuer_id, access_key, tp_evento, n_seq) WHERE status <> 'rejected';

CREATE TABLE nfe_received (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  issuer_id text NOT NULL REFERENCES issuers(id),
  access_key text NOT NULL,
  nsu text NOT NULL,
  issuer_cnpj text,
  issuer_name text,
  issued_at text,
  total numeric,
  situation text,
  summary_xml text,
  proc_xml text,
  manifestation jsonb,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX nfe_received_key ON nfe_received (issuer_id, access_key);
CREATE INDEX nfe_received_account_idx ON nfe_received (account_id, created_at, id);

-- Where each issuer's download from NFeDistribuicaoDFe stands (NT 2014.002: ask in NSU order,
-- and wait an hour after "nothing found" or after reaching maxNSU).
CREATE TABLE nfe_dfe_cursors (
  issuer_id text PRIMARY KEY REFERENCES issuers(id),
  ult_nsu text NOT NULL,
  max_nsu text NOT NULL,
  last_cstat integer,
  next_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE OR REPLACE FUNCTION events_fanout_wanted(text, text) RETURNS boolean LANGUAGE sql STABLE AS $$ SELECT $2 IN ('nfce.rejected', 'nfce.denied', 'nfe.rejected', 'nfe.denied') OR EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.account_id = $1 AND w.enabled) $$;
`,
};
