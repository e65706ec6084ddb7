import { ApiError } from '../../kernel/errors.js';
import { hashToken, looksLikeToken } from '../../infra/identity/opaque-token.js';
import { getUser, markEmailVerified } from '../../infra/storage/repositories/user-repository.js';
import { lockLiveUserToken, useUserToken } from './storage/user-token-repository.js';
import { sendUserLink } from './email-links.js';
import type { PeopleDeps } from './people-deps.js';

const BAD_LINK = () => new ApiError('invalid_token', 'This verification link is unknown, expired or already used: ask for a new one', [{ field: 'token', message: 'not a live verification token' }]);

/** Confirms the e-mail of the link's user; the link works once. */
export async function verifyEmail(deps: PeopleDeps, token: string): Promise<{ user_id: string; email: string; email_verified_at: string }> {
  if (!looksLikeToken(token, 'evf')) throw BAD_LINK();
  const hash = hashToken(token);
  return deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const row = await lockLiveUserToken(tx, hash, 'verify_email', now);
    if (!row || !(await useUserToken(tx, hash, now))) throw BAD_LINK();
    await markEmailVerified(tx, row.user_id, now);
    const user = (await getUser(tx, row.user_id))!;
    return { user_id: user.id, email: user.email, email_verified_at: (user.email_verified_at ?? now).toISOString() };
  });
}

/** A new verification link for the signed-in user (the old one stops working). */
export async function resendVerification(deps: PeopleDeps, userId: string, accountId: string): Promise<{ sent: boolean }> {
  return deps.db.transaction(async (tx) => {
    const user = await getUser(tx, userId, true);
    if (!user) throw new ApiError('unauthorized', 'Sign in again');
    if (user.email_verified_at) return { sent: false };
    await sendUserLink(tx, deps, { purpose: 'verify_email', userId, accountId, to: user.email });
    return { sent: true };
  });
}
