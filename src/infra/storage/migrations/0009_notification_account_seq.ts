import type { Migration } from '../migrate.js';

// The `seq` a client sees (the list's `seq`, the stream's event id, Last-Event-ID)
// was the table's global sequence, so an account could count the notifications of all the others.
// Each account now has its own sequence, 1, 2, 3, ..., taken from a counter row per account by a
// trigger, so every writer (any process, any release still running during an upgrade) numbers the
// same way. The counter row stays locked until the writing transaction commits: an account's
// notifications commit in the order of their numbers, so a stream that has sent n never later finds
// an uncommitted n-1. A notification refused as a duplicate (its source_key exists) may leave a gap
// in its own account's numbers, which tells nothing about other accounts.
// The global `seq` stays, internal, to resume a stream from an event id sent before this migration.
export const migration: Migration = {
  id: 9,
  name: 'notifications: per-account sequence (account_seq) instead of the global one',
  sql: `
ALTER TABLE notifications ADD COLUMN account_seq bigint;
UPDATE notifications n SET account_seq = r.rn FROM (SELECT id, row_number() OVER (PARTITION BY account_id ORDER BY seq) AS rn FROM notifications) r WHERE n.id = r.id;
ALTER TABLE notifications ALTER COLUMN account_seq SET NOT NULL;
CREATE UNIQUE INDEX notifications_account_seq_key ON notifications (account_id, account_seq);
CREATE TABLE notification_counters (
  account_id text PRIMARY KEY REFERENCES accounts(id),
  last_seq bigint NOT NULL
);
INSERT INTO notification_counters (account_id, last_seq) SELECT account_id, max(account_seq) FROM notifications GROUP BY account_id;
CREATE FUNCTION notification_account_seq() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO notification_counters AS c (account_id, last_seq) VALUES (NEW.account_id, 1) ON CONFLICT (account_id) DO UPDATE SET last_seq = c.last_seq + 1 RETURNING c.last_seq INTO NEW.account_seq; RETURN NEW; END $$;
CREATE TRIGGER notifications_account_seq BEFORE INSERT ON notifications FOR EACH ROW EXECUTE FUNCTION notification_account_seq();
`,
};
