import type { Migration } from '../migrate.js';

// An issuer cannot be deleted (its documents are kept 5 years), so an account past
// a smaller plan's issuer limit archives the excess instead: read-only, and not counted by the plan.
export const migration: Migration = {
  id: 32,
  name: 'issuers: archived_at',
  sql: `
ALTER TABLE issuers ADD COLUMN archived_at timestamptz;
`,
};
