import type { Migration } from '../migrate.js';

// The `accountant` role joins the roles a membership or an invite may hold.
// `exports`: a month of one issuer's fiscal XMLs built into a ZIP by the job exports.build
// (platform/exports). `builder` names the claim of the job that builds it (job id + attempt): a
// build whose lease ran out and was taken over finds another builder and stops writing. The ZIP is
// kept in `export_chunks`, pieces of at most 1 MiB in order, so neither the build nor the download
// holds a whole month in memory.
// Retention (docs/guides/accountant.md, docs/fiscal/retention.md): a fiscal document's XML is never
// deleted. The rows that hold the XMLs (notes, their NF-e events, voided ranges, received notes) and
// what they belong to (issuers, accounts) refuse DELETE row by row, like the audit log (migration 5).
// The sandbox's daily wipe empties tables with TRUNCATE, which fires no row trigger, and runs only in
// the sandbox (platform/sandbox/sandbox-reset.ts).
const KEPT = ['notes', 'nfe_events', 'inutilizations', 'nfe_received', 'issuers', 'accounts'];

export const migration: Migration = {
  id: 46,
  name: 'accountant role; monthly XML exports and their chunks; fiscal XML rows refuse DELETE',
  sql: `
ALTER TABLE memberships DROP CONSTRAINT memberships_role_check;
ALTER TABLE memberships ADD CONSTRAINT memberships_role_check CHECK (role IN ('owner', 'admin', 'billing', 'developer', 'accountant', 'viewer'));
ALTER TABLE invites DROP CONSTRAINT invites_role_check;
ALTER TABLE invites ADD CONSTRAINT invites_role_check CHECK (role IN ('owner', 'admin', 'billing', 'developer', 'accountant', 'viewer'));

CREATE TABLE exports (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  issuer_id text NOT NULL REFERENCES issuers(id),
  month text NOT NULL,
  kinds jsonb NOT NULL,
  status text NOT NULL CHECK (status IN ('queued', 'building', 'ready', 'failed')),
  files_total integer,
  files_done integer NOT NULL DEFAULT 0,
  size_bytes bigint,
  sha256 text,
  error jsonb,
  builder text,
  requested_by text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  finished_at timestamptz
);
CREATE INDEX exports_account_idx ON exports (account_id, created_at DESC, id DESC);

CREATE TABLE export_chunks (
  export_id text NOT NULL REFERENCES exports(id),
  seq integer NOT NULL,
  bytes bytea NOT NULL,
  PRIMARY KEY (export_id, seq)
);

CREATE INDEX notes_issuer_month_idx ON notes (issuer_id, (substring(dh_emi, 1, 7)), id);

CREATE FUNCTION fiscal_rows_kept() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION '% keeps fiscal documents: rows are never deleted (5-year retention, docs/fiscal/retention.md)', TG_TABLE_NAME; END $$;
${KEPT.map((t) => `CREATE TRIGGER ${t}_kept BEFORE DELETE ON ${t} FOR EACH ROW EXECUTE FUNCTION fiscal_rows_kept();`).join('\n')}
`,
};
