import { page } from '../../kernel/page.js';
import type { Ports } from '../ports/ports.js';
import { mailText } from './mail-outbox.js';
import { listMailFor, type MailReader, type MailRow } from './storage/mail-repository.js';
import { emailKey, getUser } from '../../infra/storage/repositories/user-repository.js';

/** Who asks: a member's session (their user and role) or an API key (no user). */
export interface MailViewer {
  accountId: string;
  session?: { userId: string; role: string; emailVerified: boolean } | undefined;
}

// Every single-use secret the gateway mails has this shape (opaque-token.ts: a short prefix, 43 base62).
const TOKEN = /\b([a-z]{2,4})_[A-Za-z0-9]{43}\b/g;

/** The text with every token replaced: the message still says what it was, the link no longer works. */
export const redactTokens = (text: string): string => text.replace(TOKEN, '$1_[redacted]');

/**
 * A page of captured mail (GET /v1/sandbox/mail), newest first. The captured mail held
 * password-reset links and invite tokens of every member, readable by anyone with
 * notifications:read: a takeover channel. Now it is a mailbox:
 *  - a member reads the mail addressed to them (and, once their own address is confirmed, the mail
 *    to it filed under other accounts: the invite an account sent them), links intact;
 *  - owners and admins also read the rest of the account's mail, with every token redacted;
 *  - an API key reads the account's mail, every token redacted (a key is nobody's mailbox).
 * Before their address is confirmed a member reads only the mail to it filed under the session's
 * account, whatever their role: a new sign-up reaches its verification link, and
 * nothing anyone else was sent. With SMTP configured that mail was really sent: until the address is
 * confirmed its tokens are redacted here too, so that the link is read in the inbox it went to.
 */
export async function listMailPage(deps: Pick<Ports, 'db' | 'secrets' | 'config'>, viewer: MailViewer, limit: number, startingAfter?: string) {
  const reader = await readerOf(deps, viewer);
  // With SMTP the mail really left: an unconfirmed address proves itself by its inbox, not here.
  const readsLinks = viewer.session?.emailVerified !== false || !deps.config.smtpUrl;
  const p = page(await listMailFor(deps.db, reader, limit + 1, startingAfter), limit);
  const data = await Promise.all(p.data.map(async (m) => {
    const mine = readsLinks && reader.addressKey !== null && m.to_address !== null && emailKey(m.to_address) === reader.addressKey;
    const text = await mailText(deps.secrets, m);
    return presentMail({ ...m, body_text: mine ? text : redactTokens(text) }, !mine && text !== redactTokens(text));
  }));
  return { data, has_more: p.has_more };
}

async function readerOf(deps: Pick<Ports, 'db'>, viewer: MailViewer): Promise<MailReader> {
  const s = viewer.session;
  if (!s) return { accountId: viewer.accountId, addressKey: null, wholeAccount: true, acrossAccounts: false };
  const user = await getUser(deps.db, s.userId);
  return {
    accountId: viewer.accountId,
    addressKey: user ? emailKey(user.email) : null,
    wholeAccount: s.emailVerified && (s.role === 'owner' || s.role === 'admin'),
    acrossAccounts: s.emailVerified,
  };
}

const presentMail = (m: MailRow, redacted: boolean) => ({
  id: m.id,
  object: 'mail' as const,
  to: m.to_address,
  subject: m.subject,
  text: m.body_text,
  redacted,
  state: m.state,
  created_at: m.created_at.toISOString(),
  sent_at: m.sent_at?.toISOString() ?? null,
});
