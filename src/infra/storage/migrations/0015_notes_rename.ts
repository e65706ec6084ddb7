import type { Migration } from '../migrate.js';

// The notes of both families of the 4.00 layout (NF-e 55, NFC-e 65) share one table, one history
// and one numbering since migration 14: their names say so now. Index names follow the tables.
export const migration: Migration = {
  id: 15,
  name: 'notes: the tables of both models lose the nfce_ prefix',
  sql: `
ALTER TABLE nfce_notes RENAME TO notes;
ALTER INDEX nfce_notes_pkey RENAME TO notes_pkey;
ALTER INDEX nfce_notes_account_idx RENAME TO notes_account_idx;
ALTER INDEX nfce_notes_account_created_idx RENAME TO notes_account_created_idx;
ALTER INDEX nfce_notes_external_ref_idx RENAME TO notes_external_ref_idx;
ALTER INDEX nfce_notes_idempotency_key RENAME TO notes_idempotency_key;
ALTER INDEX nfce_notes_number_key RENAME TO notes_number_key;
ALTER INDEX nfce_notes_access_key_key RENAME TO notes_access_key_key;
ALTER TABLE nfce_history RENAME TO note_history;
ALTER INDEX nfce_history_note_idx RENAME TO note_history_note_idx;
ALTER TABLE nfce_number_sequences RENAME TO number_sequences;
ALTER TABLE nfce_released_numbers RENAME TO released_numbers;
`,
};
