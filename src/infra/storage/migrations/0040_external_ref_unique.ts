import type { Migration } from '../migrate.js';

// A sale retried without an Idempotency-Key issued a second fiscal document for the
// same external_ref, silently. A note issued through the API holds its external_ref among its issuer's
// live notes of its model (processing, contingency, authorized): a second sale with it is refused
// (409 duplicate_external_ref) by this index, in the statement that stores the note, so two sales
// arriving together store one note. A rejected, denied or canceled note lets go of it; a sale sent
// with allow_duplicate_external_ref, and a note the point of sale issued offline (already a fiscal
// document when it arrives), do not take it (external_ref_unique false). Before this migration one
// live note per external_ref takes it, the oldest.
export const migration: Migration = {
  id: 40,
  name: 'notes: an external_ref is unique among an issuer\'s live notes of a model',
  sql: `
ALTER TABLE notes ADD COLUMN external_ref_unique boolean NOT NULL DEFAULT false;
UPDATE notes SET external_ref_unique = true WHERE id IN (
  SELECT DISTINCT ON (issuer_id, model, external_ref) id FROM notes
   WHERE external_ref IS NOT NULL AND status IN ('processing', 'contingency', 'authorized')
   ORDER BY issuer_id, model, external_ref, created_at, id);
CREATE UNIQUE INDEX notes_external_ref_live ON notes (issuer_id, model, external_ref)
  WHERE external_ref_unique AND status IN ('processing', 'contingency', 'authorized');
`,
};
