import type { Migration } from '../migrate.js';

// docs/fiscal/epec.md: the NF-e contingency an issuer chooses for when its state's authorizer is down,
// the SVC (tpEmis 6/7, the default) or EPEC (tpEmis 4, event 110140 at the Ambiente Nacional); and, on
// a note issued with tpEmis 4, its registered EPEC (protocol, time, the event's procEventoNFe).
export const migration: Migration = {
  id: 55,
  name: 'issuers choose the NF-e contingency (svc or epec); notes keep their EPEC',
  sql: `
ALTER TABLE issuers ADD COLUMN nfe_contingency text NOT NULL DEFAULT 'svc' CHECK (nfe_contingency IN ('svc', 'epec'));
ALTER TABLE notes ADD COLUMN epec jsonb;
`,
};
