import type { Migration } from '../migrate.js';

// Issuers and their secrets. Secrets (private key, certificate, CSC) are envelope-encrypted blobs
// (src/security/secret-box.ts) bound by AAD to their issuer and purpose; only non-secret
// certificate facts (subject, CNPJ, validity) are kept in clear, for display and expiry alerts.
export const migration: Migration = {
  id: 2,
  name: 'issuers: issuers, certificates, CSCs',
  sql: `
CREATE TABLE issuers (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  cnpj text NOT NULL,
  razao_social text NOT NULL,
  nome_fantasia text,
  ie text NOT NULL,
  uf text NOT NULL,
  ambiente text NOT NULL CHECK (ambiente IN ('homologacao', 'producao')),
  regime_tributario text NOT NULL CHECK (regime_tributario IN ('simples', 'simples_excesso', 'normal', 'mei')),
  endereco jsonb,
  danfe_primary_color text,
  danfe_footer_text text,
  danfe_logo_type text,
  danfe_logo bytea,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX issuers_account_cnpj_ambiente_key ON issuers (account_id, cnpj, ambiente);
CREATE INDEX issuers_account_idx ON issuers (account_id, id);

CREATE TABLE issuer_certificates (
  issuer_id text PRIMARY KEY REFERENCES issuers(id) ON DELETE CASCADE,
  version integer NOT NULL,
  subject text NOT NULL,
  common_name text NOT NULL,
  issuer_dn text NOT NULL,
  cnpj text,
  cpf text,
  serial_number text NOT NULL,
  fingerprint_sha256 text NOT NULL,
  not_before timestamptz NOT NULL,
  not_after timestamptz NOT NULL,
  storage_mode text NOT NULL,
  master_key_id text NOT NULL,
  private_key_blob text NOT NULL,
  certificate_blob text NOT NULL,
  uploaded_at timestamptz NOT NULL
);
CREATE INDEX issuer_certificates_not_after_idx ON issuer_certificates (not_after);

CREATE TABLE issuer_cscs (
  issuer_id text PRIMARY KEY REFERENCES issuers(id) ON DELETE CASCADE,
  version integer NOT NULL,
  id_csc text NOT NULL,
  csc_blob text NOT NULL,
  registered_at timestamptz NOT NULL
);
`,
};
