import type { Migration } from '../migrate.js';

// A circuit breaker per authority endpoint: every gateway process reads and writes the same
// row, so one process's failures open the endpoint for all of them and exactly one claims the probe.
// `endpoint` is the service's URL (several states share SVRS's; see fiscal/sefaz/breaker-key.ts).
// `probe_*` name a call that reached the endpoint (state, model, environment, certificate
// fingerprint): the probe asks NFeStatusServico4 of the same authorizer with that certificate.
export const migration: Migration = {
  id: 19,
  name: 'authority_breakers: one circuit breaker per authority endpoint, shared by every process',
  sql: `
CREATE TABLE authority_breakers (
  endpoint text PRIMARY KEY,
  authorizer text NOT NULL,
  service text NOT NULL,
  state text NOT NULL DEFAULT 'closed' CHECK (state IN ('closed', 'open', 'half_open')),
  failures integer NOT NULL DEFAULT 0,
  first_failure_at timestamptz,
  opened_at timestamptz,
  next_probe_at timestamptz,
  cooldown_ms integer NOT NULL DEFAULT 0,
  last_error text,
  last_error_at timestamptz,
  probe_uf text NOT NULL,
  probe_model smallint NOT NULL,
  probe_tp_amb smallint NOT NULL,
  probe_certificate text,
  updated_at timestamptz NOT NULL,
  version integer NOT NULL DEFAULT 0
);
`,
};
