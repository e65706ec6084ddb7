import type { Migration } from '../migrate.js';

// The `state` of a single sign-on flow is good once (RFC 9700 section 4.7.1, the
// OAuth 2.0 Security BCP: a state bound to one user agent and one flow). The callback records the
// state's random id here before it exchanges the code; a second callback with the same state finds
// the row and is refused. Rows are useless once the state has expired and are purged then.
export const migration: Migration = {
  id: 12,
  name: 'single sign-on: used states',
  sql: `
CREATE TABLE sso_states (
  id text PRIMARY KEY,
  provider text NOT NULL,
  used_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX sso_states_expires_idx ON sso_states (expires_at);
`,
};
