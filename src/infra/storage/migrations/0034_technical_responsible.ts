import type { Migration } from '../migrate.js';

// The technical responsible (infRespTec, MOC ZD01-10, NT 2018.005): the software house, set once per
// account (issuer_id null) and optionally per issuer, which then wins. The CSRT secret is an envelope
// blob like the CSC's. `version` comes from one sequence, so every write gives a value never seen
// before: the emission basis (EMISSION_BASIS_SQL) lists them and a sale built from an older one is redone.
// The sequence is owned by no column, so the sandbox reset (TRUNCATE ... RESTART IDENTITY) never rewinds
// it and a version is never reused (the opened CSRT is cached by owner and version).
export const migration: Migration = {
  id: 34,
  name: 'technical_responsibles',
  sql: `
CREATE SEQUENCE technical_responsible_versions;
CREATE TABLE technical_responsibles (
  owner_id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  issuer_id text REFERENCES issuers(id) ON DELETE CASCADE,
  version bigint NOT NULL DEFAULT nextval('technical_responsible_versions'),
  cnpj text NOT NULL,
  contact text NOT NULL,
  email text NOT NULL,
  phone text NOT NULL,
  csrt_id text,
  csrt_blob text,
  updated_at timestamptz NOT NULL,
  CHECK ((csrt_id IS NULL) = (csrt_blob IS NULL)),
  CHECK (owner_id = coalesce(issuer_id, account_id))
);
CREATE INDEX technical_responsibles_account ON technical_responsibles (account_id);
`,
};
