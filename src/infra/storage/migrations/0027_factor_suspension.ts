import type { Migration } from '../migrate.js';

// A password reset suspends every factor added in the 24 hours before it (somebody
// who held the account for a moment may have added it to keep coming back). A suspended passkey or
// TOTP secret stays listed, with the date it was added, but signs nobody in until its owner, signed
// in with the new password, confirms it or removes it. NULL: usable.
export const migration: Migration = {
  id: 27,
  name: 'people: passkeys and TOTP suspended by a password reset until confirmed',
  sql: `
ALTER TABLE webauthn_credentials ADD COLUMN suspended_at timestamptz;
ALTER TABLE users ADD COLUMN totp_suspended_at timestamptz;
`,
};
