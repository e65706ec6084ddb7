import type { Migration } from '../migrate.js';

// sign-in throttling that slows an attacker without locking the user out.
// device_tokens: OWASP's device cookie. A browser that completed a sign-in holds a random token (only
// its SHA-256 is here) bound to its user; presented with that user's e-mail it skips the per-e-mail
// delay, which an attacker can keep up from anywhere. Its own failures are counted here: a device
// that sees too many is refused for the rest of its window.
// second_factor_failures: wrong TOTP and recovery codes per user, across sign-in challenges, step-up
// and disabling TOTP. Each try is counted before the code is checked, in one UPDATE that also
// refuses the try while the delay runs, so parallel tries cannot check more codes than the rule says.
// Only a successful second factor deletes the row.
export const migration: Migration = {
  id: 28,
  name: 'device cookies and per-user second-factor failures',
  sql: `
CREATE TABLE device_tokens (
  token_hash bytea PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  failures integer NOT NULL DEFAULT 0,
  first_failure_at timestamptz
);
CREATE INDEX device_tokens_user_idx ON device_tokens (user_id);

CREATE TABLE second_factor_failures (
  user_id text PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  failures integer NOT NULL,
  last_at timestamptz NOT NULL
);
`,
};
