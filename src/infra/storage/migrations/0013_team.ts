import type { Migration } from '../migrate.js';

// Why an owner closed the account (force-cancel), kept beside the closing time.
export const migration: Migration = {
  id: 13,
  name: 'team: reason of an account closure',
  sql: `
ALTER TABLE accounts ADD COLUMN closed_reason text;
`,
};
