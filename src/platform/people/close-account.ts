import { ApiError } from '../../kernel/errors.js';
import { markAccountClosed } from './storage/account-repository.js';
import { revokeAccountApplications } from '../../infra/storage/repositories/application-repository.js';
import { revokePendingInvites } from './storage/invite-repository.js';
import { revokeAccountSessions } from './storage/session-repository.js';
import { disableAccountEndpoints } from '../../infra/storage/repositories/webhook-repository.js';
import { auditPeopleEvent } from './people-audit.js';
import type { PeopleDeps, RequestMeta } from './people-deps.js';
import type { SessionActor } from './session-auth.js';

export interface ClosedAccount {
  id: string;
  object: 'account_closure';
  closed_at: string;
  revoked_api_keys: number;
  revoked_sessions: number;
  disabled_webhooks: number;
}

/**
 * Force-cancel: the account closes NOW, not at the end of the billing period. In
 * ONE transaction: accounts.closed_at, every API key revoked, every session of the account revoked
 * (the caller's too), every webhook endpoint disabled ('account_closed'), pending invites revoked,
 * and an audit entry; either all of it happens or none. Documents are not touched: SEFAZ requires
 * the issuer to keep the XML for 5 years, so an owner signing in again still reads and exports them
 * (closedAccountScopes); nothing new is issued (403 account_closed).
 * Owner only, checked on the role here rather than by a route scope: a retry with the same
 * Idempotency-Key (after signing in again, on the now-closed account) must reach the replay.
 */
export async function closeAccount(
  deps: Pick<PeopleDeps, 'db' | 'clock'>,
  actor: SessionActor,
  accountId: string,
  input: { confirm: string; reason?: string | undefined },
  meta: RequestMeta,
): Promise<ClosedAccount> {
  if (actor.role !== 'owner') throw new ApiError('forbidden', `Your role (${actor.role}) does not allow this: only an owner closes the account`);
  if (input.confirm !== accountId) {
    throw new ApiError('validation_error', 'To confirm, send the id of the account being closed in `confirm`', [{ field: 'confirm', message: `must be ${accountId}` }]);
  }
  if (actor.accountClosed) throw new ApiError('account_closed', 'This account is already closed');
  return deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const closedAt = await markAccountClosed(tx, accountId, input.reason?.trim() || null, now);
    if (!closedAt) throw new ApiError('account_closed', 'This account is already closed');
    const keys = await revokeAccountApplications(tx, accountId, now);
    const sessions = await revokeAccountSessions(tx, accountId, 'account_closed', now);
    const hooks = await disableAccountEndpoints(tx, accountId, 'account_closed', now);
    await revokePendingInvites(tx, accountId, now);
    await auditPeopleEvent(tx, { accountId, actor: actor.userId, action: 'account.force_cancel', target: accountId, route: '/v1/account/force-cancel', status: 200, meta, at: now });
    return { id: accountId, object: 'account_closure' as const, closed_at: closedAt.toISOString(), revoked_api_keys: keys, revoked_sessions: sessions, disabled_webhooks: hooks };
  });
}
