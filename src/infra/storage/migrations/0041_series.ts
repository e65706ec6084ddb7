import type { Migration } from '../migrate.js';

// `skips`: numbers voided ahead of the counter (number-skips.ts), stepped
// over when the counter reaches them instead of moving it at once (a void of 950-952 while the next
// number was 14 left 14-949 neither issued nor voided). `created_at`: a series opened through the
// API (POST /v1/issuers/:id/series); `retired_at`: a series retired, on which no sale is numbered.
export const migration: Migration = {
  id: 41,
  name: 'number_sequences: voided ranges ahead of the counter, series created and retired',
  sql: `
ALTER TABLE number_sequences ADD COLUMN skips jsonb NOT NULL DEFAULT '[]';
ALTER TABLE number_sequences ADD COLUMN created_at timestamptz;
ALTER TABLE number_sequences ADD COLUMN retired_at timestamptz;
`,
};
