import type { Migration } from '../migrate.js';

// HOT updates for idempotency keys. A key is written small (state in_progress, no response) and
// completed moments later with the response's status, headers and body, none of them indexed: the
// update may stay on the row's page without touching the two indexes (a heap-only tuple) only if the
// page has room for the larger row. At the default fillfactor (100) the page is full of other new keys
// by then, and most completions moved to another page and wrote both indexes anew (BENCHMARKS.md
// "Cost per note": 0.27 of 0.98 updates per note were HOT). Pages filled to 30 % at insert keep room for
// their rows' completions; the completed rows take about that space anyway, so the table is hardly larger.
// Only pages written from now on follow the setting; existing ones are left as they are.
export const migration: Migration = {
  id: 52,
  name: 'idempotency_keys: fillfactor 30, so completing a key is a HOT update',
  sql: `
ALTER TABLE idempotency_keys SET (fillfactor = 30);
`,
};
