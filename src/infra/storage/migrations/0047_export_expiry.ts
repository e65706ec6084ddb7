import type { Migration } from '../migrate.js';

// An export's ZIP is a copy of XMLs the gateway keeps anyway (notes, events, voided ranges): it is kept
// for EXPORT_KEEP_DAYS after it is ready (`expires_at`), then its chunks go and the export is
// `expired` (the daily job exports.expire); asking again builds it anew. Exports ready before this
// migration expire a week after they were finished.
export const migration: Migration = {
  id: 47,
  name: 'exports expire: status expired, expires_at',
  sql: `
ALTER TABLE exports DROP CONSTRAINT exports_status_check;
ALTER TABLE exports ADD CONSTRAINT exports_status_check CHECK (status IN ('queued', 'building', 'ready', 'failed', 'expired'));
ALTER TABLE exports ADD COLUMN expires_at timestamptz;
UPDATE exports SET expires_at = finished_at + interval '7 days' WHERE status = 'ready';
CREATE INDEX exports_expiry_idx ON exports (expires_at) WHERE status = 'ready';
`,
};
