import { page } from '../../kernel/page.js';
import type { Ports } from '../ports/ports.js';
import { mailText } from './mail-outbox.js';
import { listMail, type MailRow } from '../storage/repositories/mail-repository.js';

/** A page of the e-mails sent or captured for the account, newest first (GET /v1/sandbox/mail). */
export async function listMailPage(deps: Pick<Ports, 'db' | 'secrets'>, accountId: string, limit: number, startingAfter?: string) {
  const p = page(await listMail(deps.db, accountId, limit + 1, startingAfter), limit);
  const data = await Promise.all(p.data.map(async (m) => presentMail({ ...m, body_text: await mailText(deps.secrets, m) })));
  return { data, has_more: p.has_more };
}

const presentMail = (m: MailRow) => ({
  id: m.id,
  object: 'mail' as const,
  to: m.to_address,
  subject: m.subject,
  text: m.body_text,
  state: m.state,
  created_at: m.created_at.toISOString(),
  sent_at: m.sent_at?.toISOString() ?? null,
});
