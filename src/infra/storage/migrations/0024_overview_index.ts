import type { Migration } from '../migrate.js';

// GET /v1/overview counts a month of an account's notes by type and status and measures
// today's authorization latency. The index on (account_id, created_at) found those rows but each one
// cost a heap visit for model, status and the timestamps; the same key with those columns INCLUDEd
// answers the counts from the index alone (index-only scan), and serves every query the old index
// served (same key columns), so it replaces it instead of adding a second index to every insert.
export const migration: Migration = {
  id: 24,
  name: 'overview: notes by account and creation time cover model, status, emission type and authorization time',
  sql: `
CREATE INDEX notes_account_created_cover ON notes (account_id, created_at) INCLUDE (model, status, tp_emis, authorized_at);
DROP INDEX notes_account_created_idx;
`,
};
