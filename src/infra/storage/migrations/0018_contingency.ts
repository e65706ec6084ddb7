import type { Migration } from '../migrate.js';

// NFC-e offline contingency (docs/fiscal/offline-contingency.md). The issuer chooses whether the gateway may issue in
// contingency when the authority does not answer (`contingency` {mode, wait_seconds}; null = the
// environment's default). A note issued in contingency carries why, when it entered contingency
// (dhCont), its transmission deadline and what became of an earlier attempt of the same sale.
export const migration: Migration = {
  id: 18,
  name: 'contingency: issuer settings, the note contingency record, outstanding notes, contingency_failed fans out',
  sql: `
ALTER TABLE issuers ADD COLUMN contingency jsonb;
ALTER TABLE notes ADD COLUMN contingency jsonb;
CREATE INDEX notes_outstanding_contingency ON notes (account_id, issuer_id, created_at) WHERE status = 'contingency';
CREATE OR REPLACE FUNCTION events_fanout_wanted(text, text) RETURNS boolean LANGUAGE sql STABLE AS $$ SELECT $2 IN ('nfce.rejected', 'nfce.denied', 'nfe.rejected', 'nfe.denied', 'nfse.rejected', 'nfce.contingency_failed', 'nfce.contingency_deadline') OR EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.account_id = $1 AND w.enabled) $$;
`,
};
