import type { Migration } from '../migrate.js';

// What an issuer needs beyond NF-e/NFC-e data to issue an NFS-e: municipal
// registration (IM), the Simples Nacional regime (regApTribSN), the special regime (regEspTrib), the
// DPS series and the signature profile. One JSON object, null while NFS-e is not configured: none of
// it is ever queried on its own, and the emission basis (the row's xmin) changes with it as it does
// with every other issuer column, so a DPS is never stored from settings that changed meanwhile.
export const migration: Migration = {
  id: 16,
  name: 'issuers: NFS-e settings (IM, Simples Nacional regime, special regime, DPS series, signature profile)',
  sql: `
ALTER TABLE issuers ADD COLUMN nfse jsonb;
`,
};
