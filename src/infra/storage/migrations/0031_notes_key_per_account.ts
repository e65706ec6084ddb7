import type { Migration } from '../migrate.js';

// A DPS Id (an NFS-e note's access_key) is made of the provider's CNPJ, the series
// and the number only, so the first DPS of every account that registers the same provider has the
// same Id: on the public sandbox, where everybody follows the README with the example CNPJ, the
// second account's first NFS-e failed with a 500 (unique violation across accounts). Two accounts
// may well hold the same company (the company itself and its accountant's account): the key is
// unique among an account's live notes, as the number is among an issuer's (notes_number_key).
export const migration: Migration = {
  id: 31,
  name: 'notes: an access key is unique within its account',
  sql: `
CREATE UNIQUE INDEX notes_account_access_key ON notes (account_id, access_key) WHERE status <> 'rejected';
DROP INDEX notes_access_key;
`,
};
