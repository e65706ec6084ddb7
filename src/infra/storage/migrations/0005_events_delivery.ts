import type { Migration } from '../migrate.js';

// Webhooks, notifications, certificate-expiry alerts, mail, audit log. Everything a worker
// needs lives here so any process may pick the work up after another dies (docs/decisions.md#components).
// Function bodies stay on one line: the migration runner splits statements at `;` + line end.
export const migration: Migration = {
  id: 5,
  name: 'webhooks, notifications, certificate alerts, mail, audit log',
  sql: `
ALTER TABLE accounts ADD COLUMN notification_email text;

CREATE TABLE webhook_endpoints (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  url text NOT NULL,
  description text NOT NULL DEFAULT '',
  event_types text[] NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  disabled_reason text,
  secret_blob text NOT NULL,
  failing_since timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  deleted_at timestamptz
);
CREATE INDEX webhook_endpoints_account_idx ON webhook_endpoints (account_id, id) WHERE deleted_at IS NULL;

CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  endpoint_id text NOT NULL REFERENCES webhook_endpoints(id),
  event_id text NOT NULL,
  event_type text NOT NULL,
  subject_id text,
  event_seq bigint,
  payload text NOT NULL,
  state text NOT NULL DEFAULT 'pending',
  attempt_count integer NOT NULL DEFAULT 0,
  last_status_code integer,
  next_attempt_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  -- Exactly one delivery per event and endpoint, however many times the fan-out runs.
  UNIQUE (endpoint_id, event_id)
);
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at DESC, id DESC);
CREATE INDEX webhook_deliveries_order_idx ON webhook_deliveries (endpoint_id, subject_id, event_seq) WHERE state = 'pending';

CREATE TABLE webhook_attempts (
  delivery_id text NOT NULL REFERENCES webhook_deliveries(id),
  attempt integer NOT NULL,
  trigger text NOT NULL,
  attempted_at timestamptz NOT NULL,
  status_code integer,
  latency_ms integer NOT NULL,
  error text,
  response_excerpt text,
  next_retry_at timestamptz,
  PRIMARY KEY (delivery_id, attempt)
);

CREATE TABLE notifications (
  seq bigserial UNIQUE,
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  type text NOT NULL,
  title text NOT NULL,
  body text NOT NULL,
  data jsonb NOT NULL,
  source_key text NOT NULL UNIQUE,
  read_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX notifications_account_idx ON notifications (account_id, seq);

CREATE TABLE mail_messages (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  to_address text,
  subject text NOT NULL,
  body_text text NOT NULL,
  state text NOT NULL,
  source_key text NOT NULL UNIQUE,
  message_id text,
  error text,
  created_at timestamptz NOT NULL,
  sent_at timestamptz
);
CREATE INDEX mail_messages_account_idx ON mail_messages (account_id, created_at DESC, id DESC);

CREATE TABLE certificate_alerts (
  issuer_id text NOT NULL REFERENCES issuers(id) ON DELETE CASCADE,
  serial_number text NOT NULL,
  threshold integer NOT NULL,
  event_id text NOT NULL,
  claimed_at timestamptz NOT NULL,
  -- Exactly once per certificate and threshold, whatever the number of workers and restarts.
  PRIMARY KEY (issuer_id, serial_number, threshold)
);

CREATE TABLE audit_log (
  seq bigserial UNIQUE,
  id text PRIMARY KEY,
  account_id text NOT NULL,
  actor text NOT NULL,
  action text NOT NULL,
  target text,
  method text NOT NULL,
  route text NOT NULL,
  status_code integer NOT NULL,
  ip text,
  request_id text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX audit_log_account_idx ON audit_log (account_id, seq DESC);

-- Append-only (issue 6): no code path updates or deletes entries, and the database refuses it too.
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit_log is append-only'; END $$;
CREATE TRIGGER audit_log_no_update_delete BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();

-- The outbox fan-out: one job per event, in the writer's transaction, whoever the writer is. A poller
-- on events.seq would skip events whose transactions commit out of seq order; a trigger cannot.
-- Only when someone is listening: an account without webhook endpoints gets no job per sale (a
-- rejected or denied note still makes an in-app notification).
CREATE FUNCTION events_enqueue_fanout() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.type IN ('nfce.rejected', 'nfce.denied') OR EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.account_id = NEW.account_id AND w.enabled) THEN INSERT INTO jobs (id, kind, payload, run_at, max_attempts, dedupe_key, created_at, updated_at) VALUES ('job_' || replace(gen_random_uuid()::text, '-', ''), 'events.fanout', jsonb_build_object('event_id', NEW.id), NEW.created_at, 25, 'fanout:' || NEW.id, NEW.created_at, NEW.created_at) ON CONFLICT (dedupe_key) DO NOTHING; END IF; RETURN NEW; END $$;
CREATE TRIGGER events_fanout AFTER INSERT ON events FOR EACH ROW EXECUTE FUNCTION events_enqueue_fanout();
`,
};
