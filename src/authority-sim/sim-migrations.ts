import type { Db } from '../infra/storage/db.js';
import type { Migration } from '../infra/storage/migrate.js';
import { runMigrations } from '../infra/storage/migrate.js';

// The simulator's own tables (prefix sim_, own migration table) so it can share the gateway's
// database in the sandbox or run alone. Rows are keyed by tenant (tenant.ts: the account a gateway
// calls for; '' for direct clients) and access key / CNPJ: several simulators (test files) may share
// one database, and accounts using the same test CNPJ never meet.
const migrations: Migration[] = [
  {
    id: 1,
    name: 'authority simulator state',
    sql: `
CREATE SEQUENCE IF NOT EXISTS sim_protocol_seq;
CREATE TABLE IF NOT EXISTS sim_notes (
  access_key text PRIMARY KEY,
  cnpj text NOT NULL,
  model smallint NOT NULL,
  serie integer NOT NULL,
  nnf bigint NOT NULL,
  tp_amb smallint NOT NULL,
  tp_emis smallint NOT NULL,
  status text NOT NULL CHECK (status IN ('authorized', 'denied', 'canceled')),
  c_stat integer NOT NULL,
  n_prot text NOT NULL,
  authorized_at timestamptz NOT NULL,
  prot_xml text NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS sim_notes_number ON sim_notes (cnpj, model, serie, nnf, tp_amb);
CREATE TABLE IF NOT EXISTS sim_grants (
  id bigserial PRIMARY KEY,
  access_key text NOT NULL,
  n_prot text NOT NULL,
  granted_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS sim_grants_key ON sim_grants (access_key);
CREATE TABLE IF NOT EXISTS sim_events (
  event_id text PRIMARY KEY,
  access_key text NOT NULL,
  tp_evento text NOT NULL,
  n_seq integer NOT NULL,
  n_prot text NOT NULL,
  registered_at timestamptz NOT NULL,
  proc_xml text NOT NULL
);
CREATE INDEX IF NOT EXISTS sim_events_key ON sim_events (access_key);
CREATE TABLE IF NOT EXISTS sim_voids (
  inut_id text PRIMARY KEY,
  cnpj text NOT NULL,
  model smallint NOT NULL,
  serie integer NOT NULL,
  tp_amb smallint NOT NULL,
  n_ini bigint NOT NULL,
  n_fin bigint NOT NULL,
  n_prot text NOT NULL,
  ret_xml text NOT NULL
);
CREATE INDEX IF NOT EXISTS sim_voids_series ON sim_voids (cnpj, model, serie, tp_amb);
CREATE TABLE IF NOT EXISTS sim_csc (
  cnpj text NOT NULL,
  tp_amb smallint NOT NULL,
  id_csc integer NOT NULL,
  csc text NOT NULL,
  revoked boolean NOT NULL DEFAULT false,
  PRIMARY KEY (cnpj, tp_amb, id_csc)
);
CREATE TABLE IF NOT EXISTS sim_receipts (
  n_rec text PRIMARY KEY,
  prot_xml text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
)`,
  },
  {
    id: 2,
    name: 'registered client certificates (standalone simulator)',
    sql: `
CREATE TABLE IF NOT EXISTS sim_client_certificates (
  fingerprint text PRIMARY KEY,
  pem text NOT NULL,
  registered_at timestamptz NOT NULL DEFAULT now()
)`,
  },
  {
    id: 3,
    name: 'protocol numbers reserved in blocks',
    // Blocks of 1000 from 10^9 on: clear of the numbers the per-protocol sequence handed out before.
    sql: `CREATE SEQUENCE IF NOT EXISTS sim_protocol_block_seq START WITH 1000000`,
  },
  {
    id: 4,
    name: 'Ambiente Nacional: received notes, distributed documents per interested party, consumption pacing',
    sql: `
CREATE TABLE IF NOT EXISTS sim_received_notes (
  access_key text PRIMARY KEY,
  recipient text NOT NULL,
  tp_amb smallint NOT NULL,
  nfe_proc_xml text NOT NULL,
  authorized_at timestamptz NOT NULL
);
CREATE TABLE IF NOT EXISTS sim_dfe_docs (
  recipient text NOT NULL,
  tp_amb smallint NOT NULL,
  nsu bigint NOT NULL,
  access_key text NOT NULL,
  schema text NOT NULL,
  xml text NOT NULL,
  PRIMARY KEY (recipient, tp_amb, nsu)
);
-- A note's summary and its whole nfeProc are handed to a party once each.
CREATE UNIQUE INDEX IF NOT EXISTS sim_dfe_docs_once ON sim_dfe_docs (recipient, tp_amb, access_key, schema)
  WHERE schema IN ('resNFe_v1.01.xsd', 'procNFe_v4.00.xsd');
CREATE INDEX IF NOT EXISTS sim_dfe_docs_key ON sim_dfe_docs (recipient, tp_amb, access_key);
CREATE TABLE IF NOT EXISTS sim_dfe_pacing (
  recipient text NOT NULL,
  tp_amb smallint NOT NULL,
  last_handed bigint NOT NULL DEFAULT 0,
  wait_until timestamptz,
  PRIMARY KEY (recipient, tp_amb)
)`,
  },
  {
    id: 5,
    name: 'Sefin Nacional and ADN: NFS-e, their events, numbers per provider, distribution by NSU (nfse/nfse-store.ts)',
    sql: `
CREATE SEQUENCE IF NOT EXISTS sim_nfse_nsu_seq;
CREATE TABLE IF NOT EXISTS sim_nfse (
  access_key text PRIMARY KEY,
  dps_id text NOT NULL UNIQUE,
  tax_id text NOT NULL,
  tp_amb smallint NOT NULL,
  n_nfse bigint NOT NULL,
  status text NOT NULL CHECK (status IN ('authorized', 'canceled', 'substituted')),
  nfse_xml text NOT NULL,
  toma_id text,
  interm_id text,
  processed_at timestamptz NOT NULL
);
CREATE TABLE IF NOT EXISTS sim_nfse_numbers (
  tax_id text PRIMARY KEY,
  last bigint NOT NULL
);
CREATE TABLE IF NOT EXISTS sim_nfse_events (
  access_key text NOT NULL,
  tp_evento text NOT NULL,
  n_seq integer NOT NULL,
  xml text NOT NULL,
  registered_at timestamptz NOT NULL,
  PRIMARY KEY (access_key, tp_evento, n_seq)
);
CREATE TABLE IF NOT EXISTS sim_nfse_dfe (
  nsu bigint PRIMARY KEY,
  access_key text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('NFSE', 'EVENTO')),
  tp_evento text,
  parties text[] NOT NULL,
  xml text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS sim_nfse_dfe_parties ON sim_nfse_dfe USING gin (parties)`,
  },
  {
    id: 6,
    name: 'tenants: every record belongs to the account the gateway called for (tenant.ts)',
    sql: `
ALTER TABLE sim_notes ADD COLUMN IF NOT EXISTS tenant text NOT NULL DEFAULT '';
ALTER TABLE sim_notes DROP CONSTRAINT IF EXISTS sim_notes_pkey;
ALTER TABLE sim_notes ADD PRIMARY KEY (tenant, access_key);
DROP INDEX IF EXISTS sim_notes_number;
CREATE UNIQUE INDEX IF NOT EXISTS sim_notes_tenant_number ON sim_notes (tenant, cnpj, model, serie, nnf, tp_amb);
ALTER TABLE sim_grants ADD COLUMN IF NOT EXISTS tenant text NOT NULL DEFAULT '';
ALTER TABLE sim_events ADD COLUMN IF NOT EXISTS tenant text NOT NULL DEFAULT '';
ALTER TABLE sim_events DROP CONSTRAINT IF EXISTS sim_events_pkey;
ALTER TABLE sim_events ADD PRIMARY KEY (tenant, event_id);
DROP INDEX IF EXISTS sim_events_key;
CREATE INDEX IF NOT EXISTS sim_events_tenant_key ON sim_events (tenant, access_key);
ALTER TABLE sim_voids ADD COLUMN IF NOT EXISTS tenant text NOT NULL DEFAULT '';
ALTER TABLE sim_voids DROP CONSTRAINT IF EXISTS sim_voids_pkey;
ALTER TABLE sim_voids ADD PRIMARY KEY (tenant, inut_id);
DROP INDEX IF EXISTS sim_voids_series;
CREATE INDEX IF NOT EXISTS sim_voids_tenant_series ON sim_voids (tenant, cnpj, model, serie, tp_amb);
ALTER TABLE sim_csc ADD COLUMN IF NOT EXISTS tenant text NOT NULL DEFAULT '';
ALTER TABLE sim_csc DROP CONSTRAINT IF EXISTS sim_csc_pkey;
ALTER TABLE sim_csc ADD PRIMARY KEY (tenant, cnpj, tp_amb, id_csc);
ALTER TABLE sim_receipts ADD COLUMN IF NOT EXISTS tenant text NOT NULL DEFAULT '';
ALTER TABLE sim_receipts DROP CONSTRAINT IF EXISTS sim_receipts_pkey;
ALTER TABLE sim_receipts ADD PRIMARY KEY (tenant, n_rec);
ALTER TABLE sim_received_notes ADD COLUMN IF NOT EXISTS tenant text NOT NULL DEFAULT '';
ALTER TABLE sim_received_notes DROP CONSTRAINT IF EXISTS sim_received_notes_pkey;
ALTER TABLE sim_received_notes ADD PRIMARY KEY (tenant, access_key);
ALTER TABLE sim_dfe_docs ADD COLUMN IF NOT EXISTS tenant text NOT NULL DEFAULT '';
ALTER TABLE sim_dfe_docs DROP CONSTRAINT IF EXISTS sim_dfe_docs_pkey;
ALTER TABLE sim_dfe_docs ADD PRIMARY KEY (tenant, recipient, tp_amb, nsu);
DROP INDEX IF EXISTS sim_dfe_docs_once;
CREATE UNIQUE INDEX IF NOT EXISTS sim_dfe_docs_tenant_once ON sim_dfe_docs (tenant, recipient, tp_amb, access_key, schema)
  WHERE schema IN ('resNFe_v1.01.xsd', 'procNFe_v4.00.xsd');
DROP INDEX IF EXISTS sim_dfe_docs_key;
CREATE INDEX IF NOT EXISTS sim_dfe_docs_tenant_key ON sim_dfe_docs (tenant, recipient, tp_amb, access_key);
ALTER TABLE sim_dfe_pacing ADD COLUMN IF NOT EXISTS tenant text NOT NULL DEFAULT '';
ALTER TABLE sim_dfe_pacing DROP CONSTRAINT IF EXISTS sim_dfe_pacing_pkey;
ALTER TABLE sim_dfe_pacing ADD PRIMARY KEY (tenant, recipient, tp_amb);
ALTER TABLE sim_nfse ADD COLUMN IF NOT EXISTS tenant text NOT NULL DEFAULT '';
ALTER TABLE sim_nfse DROP CONSTRAINT IF EXISTS sim_nfse_pkey;
ALTER TABLE sim_nfse ADD PRIMARY KEY (tenant, access_key);
ALTER TABLE sim_nfse DROP CONSTRAINT IF EXISTS sim_nfse_dps_id_key;
CREATE UNIQUE INDEX IF NOT EXISTS sim_nfse_tenant_dps ON sim_nfse (tenant, dps_id);
ALTER TABLE sim_nfse_numbers ADD COLUMN IF NOT EXISTS tenant text NOT NULL DEFAULT '';
ALTER TABLE sim_nfse_numbers DROP CONSTRAINT IF EXISTS sim_nfse_numbers_pkey;
ALTER TABLE sim_nfse_numbers ADD PRIMARY KEY (tenant, tax_id);
ALTER TABLE sim_nfse_events ADD COLUMN IF NOT EXISTS tenant text NOT NULL DEFAULT '';
ALTER TABLE sim_nfse_events DROP CONSTRAINT IF EXISTS sim_nfse_events_pkey;
ALTER TABLE sim_nfse_events ADD PRIMARY KEY (tenant, access_key, tp_evento, n_seq);
ALTER TABLE sim_nfse_dfe ADD COLUMN IF NOT EXISTS tenant text NOT NULL DEFAULT ''`,
  },
  {
    id: 7,
    name: 'records the MOC rules read: when a CSC was revoked (ZX02-308), the purpose of a note (3BA02-20)',
    sql: `
ALTER TABLE sim_csc ADD COLUMN IF NOT EXISTS revoked_at timestamptz;
ALTER TABLE sim_notes ADD COLUMN IF NOT EXISTS fin_nfe smallint`,
  },
];

export function migrateSimulator(db: Db): Promise<number[]> {
  return runMigrations(db, { table: 'sim_migrations', migrations });
}
