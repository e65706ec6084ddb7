import type { Migration } from '../migrate.js';

// - An invitation is counted per address over 24 hours, whatever account sent it (3 per address:
//   invite-limits.ts): the invites by address and time, so the count reads one address's rows only.
// - The sandbox's captured mail is read as a mailbox: a person reads what was sent to their address,
//   under any account (an invite is filed under the inviting one): the messages by address, newest first.
export const migration: Migration = {
  id: 29,
  name: 'rights: invites by address and time; captured mail by address',
  sql: `
CREATE INDEX invites_email_created_idx ON invites (email_key, created_at DESC);
CREATE INDEX mail_messages_to_idx ON mail_messages (lower(to_address), created_at DESC, id DESC) WHERE to_address IS NOT NULL;
`,
};
