import type { Migration } from '../migrate.js';

// The job queue's own way in for the database: enqueue_job() writes a job as enqueueJob does (a new
// id, a repeated dedupe key a no-op), and the two triggers that queue work on an event (the fan-out of
// migration 7, the buyer e-mail of migration 43) call it instead of writing the jobs table themselves.
// Behaviour is unchanged; the jobs table now has one writer in SQL and one in code (infra/queue/queue.ts).
// PL/pgSQL, not LANGUAGE sql: its statement's plan is kept for the session, where an SQL function called
// from a trigger is parsed and planned again on every call (BENCHMARKS.md, "Cost per note").
export const migration: Migration = {
  id: 50,
  name: 'jobs: enqueue_job() as the only SQL writer; the event triggers call it',
  sql: `
CREATE FUNCTION enqueue_job(p_kind text, p_payload jsonb, p_run_at timestamptz, p_max_attempts integer, p_dedupe_key text, p_at timestamptz)
  RETURNS void LANGUAGE plpgsql AS $$ BEGIN INSERT INTO jobs (id, kind, payload, run_at, max_attempts, dedupe_key, created_at, updated_at) VALUES ('job_' || replace(gen_random_uuid()::text, '-', ''), p_kind, p_payload, p_run_at, p_max_attempts, p_dedupe_key, p_at, p_at) ON CONFLICT (dedupe_key) DO NOTHING; END $$;
CREATE OR REPLACE FUNCTION events_enqueue_fanout() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF events_fanout_wanted(NEW.account_id, NEW.type) THEN PERFORM enqueue_job('events.fanout', jsonb_build_object('event_id', NEW.id), NEW.created_at, 25, 'fanout:' || NEW.id, NEW.created_at); END IF; RETURN NEW; END $$;
CREATE OR REPLACE FUNCTION events_enqueue_buyer_mail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF EXISTS (SELECT 1 FROM notes n LEFT JOIN issuer_buyer_mail s ON s.issuer_id = n.issuer_id WHERE n.id = NEW.subject_id AND coalesce(CASE n.request->'email'->>'send' WHEN 'true' THEN true WHEN 'false' THEN false END, s.enabled, false)) THEN PERFORM enqueue_job('notes.buyer-mail', jsonb_build_object('event_id', NEW.id), NEW.created_at, 12, 'buyer-mail:' || NEW.subject_id || ':' || CASE WHEN NEW.type LIKE '%.canceled' THEN 'canceled' ELSE 'authorized' END, NEW.created_at); END IF; RETURN NEW; END $$;
`,
};
