import type { Migration } from '../migrate.js';

// The outbox trigger's condition as a function of its own, so a writer can learn in the same
// statement whether its event will fan out (and wake the job runner for it) instead of asking the
// queue again after every sale. Same condition as migration 5; the trigger now calls it.
export const migration: Migration = {
  id: 7,
  name: 'events: fan-out condition as a function shared by the trigger and writers',
  sql: `
CREATE FUNCTION events_fanout_wanted(text, text) RETURNS boolean LANGUAGE sql STABLE AS $$ SELECT $2 IN ('nfce.rejected', 'nfce.denied') OR EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.account_id = $1 AND w.enabled) $$;
CREATE OR REPLACE FUNCTION events_enqueue_fanout() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF events_fanout_wanted(NEW.account_id, NEW.type) THEN INSERT INTO jobs (id, kind, payload, run_at, max_attempts, dedupe_key, created_at, updated_at) VALUES ('job_' || replace(gen_random_uuid()::text, '-', ''), 'events.fanout', jsonb_build_object('event_id', NEW.id), NEW.created_at, 25, 'fanout:' || NEW.id, NEW.created_at, NEW.created_at) ON CONFLICT (dedupe_key) DO NOTHING; END IF; RETURN NEW; END $$;
`,
};
