import { page } from '../../kernel/page.js';
import type { Ports } from '../ports/ports.js';
import { listBuyerMails, type BuyerMailRow } from '../../infra/storage/repositories/buyer-mail-repository.js';

// GET /v1/buyer-emails: what each note's buyer was sent, or why not (docs/guides/email.md).

const present = (m: BuyerMailRow) => ({
  id: m.id,
  object: 'buyer_email' as const,
  note_id: m.note_id,
  issuer_id: m.issuer_id,
  kind: m.kind,
  to: m.to_address,
  bcc: m.bcc_address,
  subject: m.subject,
  state: m.state,
  reason: m.reason,
  error: m.error,
  attempts: m.attempts,
  created_at: m.created_at.toISOString(),
  sent_at: m.sent_at?.toISOString() ?? null,
});

export async function listBuyerMailPage(deps: Pick<Ports, 'db'>, accountId: string, q: { note_id?: string | undefined; limit: number; starting_after?: string | undefined }) {
  const p = page(await listBuyerMails(deps.db, accountId, { noteId: q.note_id, limit: q.limit + 1, startingAfter: q.starting_after }), q.limit);
  return { data: p.data.map(present), has_more: p.has_more };
}
