import type { Migration } from '../migrate.js';

// Tenancy from day one: every record belongs to an account; no query crosses accounts.
export const migration: Migration = {
  id: 1,
  name: 'core: accounts, applications, idempotency keys',
  sql: `
CREATE TABLE accounts (
  id text PRIMARY KEY,
  name text NOT NULL,
  tax_regime text NOT NULL DEFAULT 'legacy',
  environment text NOT NULL DEFAULT 'sandbox',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE applications (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  name text NOT NULL,
  scopes text[] NOT NULL,
  key_hash bytea NOT NULL UNIQUE,
  key_prefix text NOT NULL,
  previous_key_hash bytea UNIQUE,
  previous_key_expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  rotated_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX applications_account_idx ON applications (account_id, id);

CREATE TABLE idempotency_keys (
  account_id text NOT NULL,
  method text NOT NULL,
  path text NOT NULL,
  key text NOT NULL,
  body_hash text NOT NULL,
  state text NOT NULL,
  response_status integer,
  response_headers jsonb,
  response_body text,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  locked_until timestamptz NOT NULL,
  PRIMARY KEY (account_id, method, path, key)
);
CREATE INDEX idempotency_keys_expiry_idx ON idempotency_keys (expires_at);
`,
};
