import type { Migration } from '../migrate.js';

// Dashboard people. Every secret here is a hash (SHA-256 of a long random token, argon2id
// of a password) or sealed by the secret box (the TOTP seed): a copy of the database signs no one in.
// Function bodies stay on one line: the migration runner splits statements at `;` + line end.
export const migration: Migration = {
  id: 10,
  name: 'people: users, memberships, sessions, second factors, invites, single sign-on',
  sql: `
CREATE TABLE users (
  id text PRIMARY KEY,
  email text NOT NULL,
  -- lower-cased and trimmed: one person, one user, whatever the capitals typed
  email_key text NOT NULL UNIQUE,
  name text NOT NULL DEFAULT '',
  password_hash text,
  email_verified_at timestamptz,
  totp_secret_blob text,
  totp_enabled_at timestamptz,
  -- the last TOTP time step accepted: a code is good once (RFC 6238 section 5.2)
  totp_last_step bigint,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE memberships (
  account_id text NOT NULL REFERENCES accounts(id),
  user_id text NOT NULL REFERENCES users(id),
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'billing', 'developer', 'viewer')),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, user_id)
);
CREATE INDEX memberships_user_idx ON memberships (user_id, created_at);

-- A message that carries a single-use link (verification, reset, invite) is kept sealed by the
-- secret box until it is sent: the outbox never holds such a token in clear.
ALTER TABLE mail_messages ADD COLUMN body_blob text;

ALTER TABLE accounts ADD COLUMN closed_at timestamptz;
ALTER TABLE accounts ADD COLUMN require_sso boolean NOT NULL DEFAULT false;

-- One row per sign-in: it is also the refresh-token family (rotation stays inside it).
CREATE TABLE sessions (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id),
  account_id text NOT NULL REFERENCES accounts(id),
  token_hash bytea NOT NULL UNIQUE,
  -- the token before the last refresh, accepted for a short grace (requests already in flight)
  previous_token_hash bytea UNIQUE,
  previous_token_until timestamptz,
  methods text[] NOT NULL,
  authenticated_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  ip text,
  user_agent text,
  revoked_at timestamptz,
  revoked_reason text
);
CREATE INDEX sessions_user_idx ON sessions (user_id, created_at DESC);

CREATE TABLE refresh_tokens (
  token_hash bytea PRIMARY KEY,
  session_id text NOT NULL REFERENCES sessions(id),
  created_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX refresh_tokens_session_idx ON refresh_tokens (session_id);

-- Single-use tokens sent by e-mail (verification, password reset) and login challenges.
CREATE TABLE user_tokens (
  token_hash bytea PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id),
  purpose text NOT NULL,
  account_id text,
  data jsonb NOT NULL DEFAULT '{}',
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX user_tokens_user_idx ON user_tokens (user_id, purpose);

CREATE TABLE recovery_codes (
  user_id text NOT NULL REFERENCES users(id),
  code_hash bytea NOT NULL,
  created_at timestamptz NOT NULL,
  used_at timestamptz,
  PRIMARY KEY (user_id, code_hash)
);

-- Failed sign-ins per e-mail and per IP: a growing delay, never a lock the attacker can keep closed.
CREATE TABLE login_failures (
  key text PRIMARY KEY,
  failures integer NOT NULL,
  first_at timestamptz NOT NULL,
  last_at timestamptz NOT NULL
);

CREATE TABLE invites (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  email text NOT NULL,
  email_key text NOT NULL,
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'billing', 'developer', 'viewer')),
  token_hash bytea NOT NULL UNIQUE,
  invited_by text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  accepted_by text,
  revoked_at timestamptz
);
CREATE INDEX invites_account_idx ON invites (account_id, created_at DESC);

CREATE TABLE webauthn_credentials (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id),
  credential_id text NOT NULL UNIQUE,
  public_key bytea NOT NULL,
  counter bigint NOT NULL,
  transports text[] NOT NULL DEFAULT '{}',
  device_type text,
  backed_up boolean NOT NULL DEFAULT false,
  name text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL,
  last_used_at timestamptz
);
CREATE INDEX webauthn_credentials_user_idx ON webauthn_credentials (user_id);

-- A user's identities at the single sign-on providers: provider + subject, never the e-mail alone.
CREATE TABLE user_identities (
  provider text NOT NULL,
  subject text NOT NULL,
  user_id text NOT NULL REFERENCES users(id),
  email text,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (provider, subject)
);
CREATE INDEX user_identities_user_idx ON user_identities (user_id);
`,
};
