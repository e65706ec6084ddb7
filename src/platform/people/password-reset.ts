import { ApiError } from '../../kernel/errors.js';
import { hashPassword } from '../identity/password.js';
import { hashToken, looksLikeToken } from '../identity/opaque-token.js';
import { listUserMemberships } from '../storage/repositories/membership-repository.js';
import { revokeUserSessions } from '../storage/repositories/session-repository.js';
import { findUserByEmail, markEmailVerified, setPasswordHash } from '../storage/repositories/user-repository.js';
import { lockLiveUserToken, useUserToken } from '../storage/repositories/user-token-repository.js';
import { sendUserLink } from './email-links.js';
import { auditPeopleEvent } from './people-audit.js';
import type { PeopleDeps, RequestMeta } from './people-deps.js';

/**
 * Sends a reset link when the e-mail has a user; answers the same either way (the caller learns
 * nothing about which e-mails have users).
 */
export async function requestPasswordReset(deps: PeopleDeps, email: string): Promise<void> {
  const user = await findUserByEmail(deps.db, email);
  if (!user) return;
  const [membership] = await listUserMemberships(deps.db, user.id);
  if (!membership) return; // the outbox files mail under an account; a user of none has no dashboard to return to
  await deps.db.transaction((tx) => sendUserLink(tx, deps, { purpose: 'reset_password', userId: user.id, accountId: membership.account_id, to: user.email }));
}

const BAD_LINK = () => new ApiError('invalid_token', 'This reset link is unknown, expired or already used: ask for a new one', [{ field: 'token', message: 'not a live reset token' }]);

/** Sets the new password and ends every session of the user (whoever held the old password is out). */
export async function resetPassword(deps: PeopleDeps, token: string, password: string, meta: RequestMeta): Promise<void> {
  if (!looksLikeToken(token, 'pwr')) throw BAD_LINK();
  const hash = hashToken(token);
  const passwordHash = await hashPassword(password);
  await deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const row = await lockLiveUserToken(tx, hash, 'reset_password', now);
    if (!row || !(await useUserToken(tx, hash, now))) throw BAD_LINK();
    await setPasswordHash(tx, row.user_id, passwordHash, now);
    // The link reached this address: it is the user's.
    await markEmailVerified(tx, row.user_id, now);
    await revokeUserSessions(tx, row.user_id, 'password_reset', now);
    if (row.account_id) {
      await auditPeopleEvent(tx, { accountId: row.account_id, actor: row.user_id, action: 'auth.password.reset', target: row.user_id, route: '/v1/auth/password/reset', status: 204, meta, at: now });
    }
  });
}
