import type { Migration } from '../migrate.js';

// NFC-e notes, their gap-free numbering and their history (docs/decisions.md#numbering).
export const migration: Migration = {
  id: 4,
  name: 'nfce: notes, numbering, history, inutilizations',
  sql: `
CREATE TABLE nfce_notes (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  issuer_id text NOT NULL REFERENCES issuers(id),
  external_ref text,
  status text NOT NULL,
  model integer NOT NULL DEFAULT 65,
  serie integer NOT NULL,
  number integer NOT NULL,
  access_key text NOT NULL UNIQUE,
  tp_amb integer NOT NULL,
  tp_emis integer NOT NULL,
  dh_emi text NOT NULL,
  schema_package text NOT NULL,
  request jsonb NOT NULL,
  totals jsonb NOT NULL,
  items jsonb NOT NULL,
  signed_xml text NOT NULL,
  digest_value text NOT NULL,
  qrcode_url text NOT NULL,
  url_chave text NOT NULL,
  protocolo text,
  authorized_at timestamptz,
  proc_xml text,
  rejection jsonb,
  cancellation jsonb,
  cancel_proc_xml text,
  attempts integer NOT NULL DEFAULT 0,
  scenario text,
  idempotency_key text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX nfce_notes_account_idx ON nfce_notes (account_id, id);
CREATE INDEX nfce_notes_account_created_idx ON nfce_notes (account_id, created_at);
CREATE INDEX nfce_notes_external_ref_idx ON nfce_notes (account_id, external_ref);
-- A sale retried with its Idempotency-Key after a crash between commit and answer finds its note.
CREATE UNIQUE INDEX nfce_notes_idempotency_key ON nfce_notes (account_id, idempotency_key);
-- One live note per number: a rejected note's number goes back to the pool and is reused.
CREATE UNIQUE INDEX nfce_notes_number_key ON nfce_notes (issuer_id, model, serie, number) WHERE status <> 'rejected';

CREATE TABLE nfce_number_sequences (
  issuer_id text NOT NULL REFERENCES issuers(id),
  model integer NOT NULL,
  serie integer NOT NULL,
  next_number integer NOT NULL,
  PRIMARY KEY (issuer_id, model, serie)
);

CREATE TABLE nfce_released_numbers (
  issuer_id text NOT NULL REFERENCES issuers(id),
  model integer NOT NULL,
  serie integer NOT NULL,
  number integer NOT NULL,
  released_at timestamptz NOT NULL,
  PRIMARY KEY (issuer_id, model, serie, number)
);

CREATE TABLE nfce_history (
  seq bigserial PRIMARY KEY,
  id text NOT NULL UNIQUE,
  note_id text NOT NULL REFERENCES nfce_notes(id),
  type text NOT NULL,
  at timestamptz NOT NULL,
  code text,
  message text,
  protocolo text
);
CREATE INDEX nfce_history_note_idx ON nfce_history (note_id, seq);

CREATE TABLE inutilizations (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  issuer_id text NOT NULL REFERENCES issuers(id),
  model integer NOT NULL,
  serie integer NOT NULL,
  numero_inicial integer NOT NULL,
  numero_final integer NOT NULL,
  justification text NOT NULL,
  status text NOT NULL,
  protocolo text,
  proc_xml text,
  rejection jsonb,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX inutilizations_issuer_idx ON inutilizations (issuer_id, model, serie);
`,
};
