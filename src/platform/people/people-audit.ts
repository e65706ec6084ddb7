import { newId } from '../../kernel/ids.js';
import type { Queryable } from '../../infra/storage/db.js';
import { appendAuditEntries } from '../../infra/storage/repositories/audit-repository.js';
import type { RequestMeta } from './people-deps.js';

/**
 * An audit entry written by a use case, in its transaction: what the HTTP audit hook cannot see
 * (a sign-in has no account until it succeeds; a revoked refresh family is a decision, not a route).
 * Never a secret: actor and target are ids.
 */
export async function auditPeopleEvent(
  tx: Queryable,
  e: { accountId: string; actor: string; action: string; target: string | null; route: string; status: number; meta: RequestMeta; at: Date },
): Promise<void> {
  await appendAuditEntries(tx, [{
    id: newId('aud'),
    account_id: e.accountId,
    actor: e.actor,
    action: e.action,
    target: e.target,
    method: 'POST',
    route: e.route,
    status_code: e.status,
    ip: e.meta.ip,
    request_id: e.meta.requestId,
    created_at: e.at,
  }]);
}
