import type { Migration } from '../migrate.js';

// Every sale writes its signed XML, then its nfeProc, the request and the outbox record: TOAST
// compression with pglz was a visible share of the server's CPU on bench:emit; lz4 is several
// times faster at a similar ratio. A server built without lz4 (and PGlite) keeps pglz.
const columns: Array<[string, string]> = [
  ['nfce_notes', 'signed_xml'],
  ['nfce_notes', 'proc_xml'],
  ['nfce_notes', 'cancel_proc_xml'],
  ['nfce_notes', 'request'],
  ['nfce_notes', 'items'],
  ['events', 'data'],
];

export const migration: Migration = {
  id: 6,
  name: 'lz4 compression for stored documents where the server has it',
  // One line: migration files split statements at line-ending semicolons.
  sql: `DO $$ BEGIN ${columns.map(([t, c]) => `ALTER TABLE ${t} ALTER COLUMN ${c} SET COMPRESSION lz4;`).join(' ')} EXCEPTION WHEN feature_not_supported THEN NULL; END $$`,
};
