import type { Migration } from '../migrate.js';

// The random challenges of passkey ceremonies. Only the SHA-256 of a challenge is
// kept (the browser sends the challenge back inside clientDataJSON; we look it up by its hash). A row
// is bound to what it was issued for and is deleted by the one verification that uses it, so a
// replayed response finds nothing (WebAuthn L3 §13.4.3: challenges are single-use and short-lived).
export const migration: Migration = {
  id: 11,
  name: 'passkey challenges: single-use, five minutes, bound to their purpose',
  sql: `
CREATE TABLE webauthn_challenges (
  challenge_hash bytea PRIMARY KEY,
  -- registration: a passkey for user_id, from session_id
  -- authentication: a discoverable sign-in (no user yet)
  -- login_challenge: the second factor of the password sign-in whose mfa_ token hashes to login_token_hash
  -- step_up: session_id proves its user again
  purpose text NOT NULL CHECK (purpose IN ('registration', 'authentication', 'login_challenge', 'step_up')),
  user_id text REFERENCES users(id) ON DELETE CASCADE,
  session_id text REFERENCES sessions(id) ON DELETE CASCADE,
  login_token_hash bytea,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX webauthn_challenges_expires_idx ON webauthn_challenges (expires_at);
`,
};
