import type { Migration } from '../migrate.js';

// The durable job queue (authorization, webhooks, expiry checks) and the outbox of state changes
// that webhooks and notifications read; both live in PostgreSQL so any process can die and another
// picks the work up (docs/decisions.md#components).
export const migration: Migration = {
  id: 3,
  name: 'jobs queue and event outbox',
  sql: `
CREATE TABLE jobs (
  id text PRIMARY KEY,
  kind text NOT NULL,
  payload jsonb NOT NULL,
  state text NOT NULL DEFAULT 'pending',
  run_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL,
  locked_by text,
  locked_until timestamptz,
  last_error text,
  dedupe_key text UNIQUE,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX jobs_ready_idx ON jobs (run_at) WHERE state IN ('pending', 'running');

CREATE TABLE events (
  seq bigserial UNIQUE,
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  type text NOT NULL,
  subject_type text NOT NULL,
  subject_id text NOT NULL,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX events_account_idx ON events (account_id, seq);
CREATE INDEX events_subject_idx ON events (subject_id, seq);
`,
};
