import type { Queryable } from '../db.js';
import { newId } from '../../../kernel/ids.js';

/**
 * The outbox: every state change a user may subscribe to, written in the same transaction as the
 * change itself, so webhooks and notifications can never miss one or announce one that rolled back.
 */
export async function recordEvent(
  tx: Queryable,
  e: { accountId: string; type: string; subjectType: string; subjectId: string; data: unknown; at: Date; id?: string },
): Promise<string> {
  const id = e.id ?? newId('evt');
  await tx.query(
    `INSERT INTO events (id, account_id, type, subject_type, subject_id, data, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [id, e.accountId, e.type, e.subjectType, e.subjectId, JSON.stringify(e.data), e.at],
  );
  return id;
}
