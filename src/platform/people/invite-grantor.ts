import { ApiError } from '../../kernel/errors.js';
import { canManageRole, isRole, ROLE_SCOPES, type Role } from '../../infra/identity/roles.js';
import { missingScopes } from '../../infra/identity/scopes.js';
import type { Queryable } from '../../infra/storage/db.js';
import { getApplication } from '../../infra/storage/repositories/application-repository.js';
import { getMembership } from './storage/membership-repository.js';

/** What the inviter holds now: a member their role's scopes, a key its own (a `*` key acts as owner); nothing once gone. */
async function inviterNow(tx: Queryable, accountId: string, invitedBy: string): Promise<{ role: Role; scopes: readonly string[] } | null> {
  if (invitedBy === 'sandbox') return { role: 'owner', scopes: ['*'] };
  if (invitedBy.startsWith('app_')) {
    const app = await getApplication(tx, accountId, invitedBy);
    return app ? { role: app.scopes.includes('*') ? 'owner' : 'admin', scopes: app.scopes } : null;
  }
  const m = await getMembership(tx, accountId, invitedBy);
  return m && isRole(m.role) ? { role: m.role, scopes: ROLE_SCOPES[m.role] } : null;
}

/**
 * at acceptance: an invite is a grant made in its inviter's name and used up to 7
 * days later. If meanwhile the inviter lost the rights it gives (an admin demoted or removed, a key
 * revoked), accepting it would still hand them out; so it is refused (the invite stays pending,
 * the account can revoke it or send a new one).
 */
export async function requireInviterStillHolds(tx: Queryable, invite: { account_id: string; invited_by: string; role: Role }): Promise<void> {
  const inviter = await inviterNow(tx, invite.account_id, invite.invited_by);
  if (inviter && canManageRole(inviter.role, invite.role) && missingScopes(inviter.scopes, ROLE_SCOPES[invite.role]).length === 0) return;
  throw new ApiError(
    'exceeds_own_rights',
    `Whoever sent this invite no longer holds the rights of the ${invite.role} role (their role changed, they left or their key was revoked): ask the account for a new invite`,
    [{ field: 'token', message: 'the inviter no longer holds this role' }],
  );
}
