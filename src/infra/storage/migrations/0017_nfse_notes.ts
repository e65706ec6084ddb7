import type { Migration } from '../migrate.js';

// NFS-e (Padrão Nacional) notes live in `notes` beside NF-e and NFC-e: one emission statement (note +
// number + job), one numbering (model 99: DPS series per issuer), one history, one settlement. What
// differs is how the authority names the document. A DPS is known to Sefin by its 45-character DPS Id
// (docs/fiscal/nfse-national.md#dps) from the moment it is built - that is the note's `access_key`, the recovery handle for
// GET /dps/{id} - while the 50-digit NFS-e key and the NFS-e number exist only once Sefin authorizes
// (docs/fiscal/nfse-national.md#access-key): they get columns of their own.
// The DPS Id is made of the number (cLocEmi + provider + serie + nDPS): a DPS Sefin refused generated
// no NFS-e (E0014 concerns DPS that did), so its number goes to the next sale, which then carries the
// same Id. The key stays unique among the notes that hold their number - the ones not rejected - as
// the number itself does (notes_number_key); a rejected note keeps the Id it was refused under.
export const migration: Migration = {
  id: 17,
  name: 'nfse: the NFS-e key and number Sefin assigns, and nfse.* events that always fan out',
  sql: `
ALTER TABLE notes DROP CONSTRAINT notes_access_key_key;
CREATE UNIQUE INDEX notes_access_key ON notes (access_key) WHERE status <> 'rejected';
ALTER TABLE notes ADD COLUMN nfse_key text;
ALTER TABLE notes ADD COLUMN nfse_number text;
CREATE UNIQUE INDEX notes_nfse_key ON notes (nfse_key) WHERE nfse_key IS NOT NULL;
CREATE OR REPLACE FUNCTION events_fanout_wanted(text, text) RETURNS boolean LANGUAGE sql STABLE AS $$ SELECT $2 IN ('nfce.rejected', 'nfce.denied', 'nfe.rejected', 'nfe.denied', 'nfse.rejected') OR EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.account_id = $1 AND w.enabled) $$;
`,
};
