import type { Migration } from '../migrate.js';

// The buyer receives the DANFE and the authorized XML by e-mail, and a notice when the
// note is canceled (documents/notes/services/send-buyer-mail.ts, docs/guides/email.md).
//  - issuer_buyer_mail: one row per issuer that set it up (on/off, the sender's display name, an
//    accountant's address copied in Bcc); no row is "off".
//  - buyer_mails: one row per note and kind ever (UNIQUE), the record a retry reads before sending
//    again, so a job that runs twice sends one message.
//  - mail_bounces: addresses an SMTP server refused with a 5xx (a permanent answer, RFC 5321 4.2.1),
//    per account; they are not mailed again until removed through the API.
// The job is queued by a trigger on the outbox, in the transaction that authorized or canceled the
// note (the settlement is one statement: note-settlement.ts), and only where a mail may go: the
// issuer turned it on and the sale did not say `email.send: false`, or the sale asked for it
// (`email.send: true`) whatever the issuer's setting.
export const migration: Migration = {
  id: 43,
  name: 'buyer e-mail: issuer settings, one record per note and kind, the bounce list, the outbox trigger',
  sql: `
CREATE TABLE issuer_buyer_mail (
  issuer_id text PRIMARY KEY REFERENCES issuers(id) ON DELETE CASCADE,
  account_id text NOT NULL,
  enabled boolean NOT NULL,
  sender_name text,
  accountant_email text,
  updated_at timestamptz NOT NULL
);
CREATE TABLE buyer_mails (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  issuer_id text NOT NULL,
  note_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('authorized', 'canceled')),
  event_id text NOT NULL,
  to_address text,
  bcc_address text,
  subject text,
  state text NOT NULL CHECK (state IN ('pending', 'sending', 'sent', 'captured', 'skipped', 'bounced', 'failed')),
  reason text,
  message_id text,
  error text,
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  sent_at timestamptz,
  UNIQUE (note_id, kind)
);
CREATE INDEX buyer_mails_account ON buyer_mails (account_id, created_at DESC, id DESC);
CREATE TABLE mail_bounces (
  account_id text NOT NULL,
  address_key text NOT NULL,
  address text NOT NULL,
  smtp_code integer NOT NULL,
  response text NOT NULL,
  note_id text,
  bounced_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, address_key)
);
CREATE FUNCTION events_enqueue_buyer_mail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF EXISTS (SELECT 1 FROM notes n LEFT JOIN issuer_buyer_mail s ON s.issuer_id = n.issuer_id WHERE n.id = NEW.subject_id AND coalesce(CASE n.request->'email'->>'send' WHEN 'true' THEN true WHEN 'false' THEN false END, s.enabled, false)) THEN INSERT INTO jobs (id, kind, payload, run_at, max_attempts, dedupe_key, created_at, updated_at) VALUES ('job_' || replace(gen_random_uuid()::text, '-', ''), 'notes.buyer-mail', jsonb_build_object('event_id', NEW.id), NEW.created_at, 12, 'buyer-mail:' || NEW.subject_id || ':' || CASE WHEN NEW.type LIKE '%.canceled' THEN 'canceled' ELSE 'authorized' END, NEW.created_at, NEW.created_at) ON CONFLICT (dedupe_key) DO NOTHING; END IF; RETURN NEW; END $$;
CREATE TRIGGER events_buyer_mail AFTER INSERT ON events FOR EACH ROW
  WHEN (NEW.type IN ('nfce.authorized', 'nfce.contingency_authorized', 'nfce.canceled', 'nfe.authorized', 'nfe.canceled', 'nfse.authorized', 'nfse.canceled'))
  EXECUTE FUNCTION events_enqueue_buyer_mail();
`,
};
