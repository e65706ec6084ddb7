import { ApiError } from '../../kernel/errors.js';
import { page } from '../../kernel/page.js';
import type { Ports } from '../ports/ports.js';
import { listBounces, removeBounce, type MailBounceRow } from '../../infra/storage/repositories/buyer-mail-repository.js';

// The account's bounce list (docs/guides/email.md): an address an SMTP server refused with a permanent
// (5xx) reply while a buyer's mail was handed over is not mailed again until it is removed here.

const present = (b: MailBounceRow) => ({
  object: 'mail_bounce' as const,
  address: b.address,
  smtp_code: b.smtp_code,
  response: b.response,
  note_id: b.note_id,
  bounced_at: b.bounced_at.toISOString(),
});

export async function listBouncePage(deps: Pick<Ports, 'db'>, accountId: string, limit: number, startingAfter?: string) {
  const p = page(await listBounces(deps.db, accountId, limit + 1, startingAfter), limit);
  return { data: p.data.map(present), has_more: p.has_more };
}

/** Takes an address off the list: the next note's mail goes to it again. */
export async function clearBounce(deps: Pick<Ports, 'db'>, accountId: string, address: string): Promise<void> {
  if (!(await removeBounce(deps.db, accountId, address))) throw new ApiError('not_found', `${address} is not on the bounce list`);
}
