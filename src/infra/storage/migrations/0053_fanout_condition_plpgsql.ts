import type { Migration } from '../migrate.js';

// events_fanout_wanted (migration 0018's condition: a rejection-like event, or an account with an
// enabled webhook endpoint) runs once per outbox event, in the events trigger and in each settlement's
// statement (note-settlement.ts). As a LANGUAGE sql function holding EXISTS it could not be inlined, so
// every call parsed and planned its body again (functions.c, fmgr_sql; BENCHMARKS.md "Cost per note").
// The same expression in PL/pgSQL keeps its plan for the session; its answer is unchanged.
// Function bodies never end a line with `;`: the migration runner splits statements there.
export const migration: Migration = {
  id: 53,
  name: 'events: the fan-out condition in PL/pgSQL (its plan kept per session)',
  sql: `
CREATE OR REPLACE FUNCTION events_fanout_wanted(text, text) RETURNS boolean LANGUAGE plpgsql STABLE AS $$ BEGIN RETURN $2 IN ('nfce.rejected', 'nfce.denied', 'nfe.rejected', 'nfe.denied', 'nfse.rejected', 'nfce.contingency_failed', 'nfce.contingency_deadline') OR EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.account_id = $1 AND w.enabled); END $$;
`,
};
