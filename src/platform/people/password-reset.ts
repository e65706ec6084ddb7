import { ApiError } from '../../kernel/errors.js';
import { enqueueJob, type Job } from '../../infra/queue/queue.js';
import { hashPassword } from '../../infra/identity/password.js';
import { hashToken, looksLikeToken } from '../../infra/identity/opaque-token.js';
import type { Ports } from '../ports/ports.js';
import { deleteUserDeviceTokens } from './storage/device-token-repository.js';
import { listUserFactors, removeAllFactors, suspendFactorsAddedSince, type FactorRow } from './storage/factor-repository.js';
import { listUserMemberships } from './storage/membership-repository.js';
import { revokeUserSessions } from './storage/session-repository.js';
import { emailKey, findUserByEmail, getUser, markEmailVerified, setPasswordHash } from '../../infra/storage/repositories/user-repository.js';
import { expireUserTokens, lockLiveUserToken, useUserToken } from './storage/user-token-repository.js';
import { sendUserLink } from './email-links.js';
import { announceFactorNotice, writeFactorNotice, type NoticeDeps } from './factor-notice.js';
import { presentFactor, type FactorView } from './factors.js';
import { auditPeopleEvent } from './people-audit.js';
import type { PeopleDeps, RequestMeta } from './people-deps.js';

export const PASSWORD_RESET_MAIL_JOB = 'people.password-reset-mail';

// A factor added this long before a reset may be the intruder's; it waits for its owner.
const SUSPEND_WINDOW_MS = 24 * 3600_000;

/**
 * Queues the reset link as a job, whatever the address: the request does the same work (one insert)
 * for an address with a user and one without, so neither the answer nor its time tells them apart
 * (bench/forgot-timing.ts). The worker looks the address up.
 */
export async function requestPasswordReset(deps: Pick<Ports, 'db' | 'clock' | 'wakeWorker'>, email: string): Promise<void> {
  const now = deps.clock.now();
  await enqueueJob(deps.db, PASSWORD_RESET_MAIL_JOB, { email: emailKey(email) }, { runAt: now, now, maxAttempts: 5 });
  deps.wakeWorker();
}

/** Job `people.password-reset-mail`: sends the link when the address has a user (in an account); nothing otherwise. */
export async function sendPasswordResetLink(deps: PeopleDeps, job: Job<{ email: string }>): Promise<void> {
  const user = await findUserByEmail(deps.db, job.payload.email);
  if (!user) return;
  const [membership] = await listUserMemberships(deps.db, user.id);
  if (!membership) return; // the outbox files mail under an account; a user of none has no dashboard to return to
  await deps.db.transaction((tx) => sendUserLink(tx, deps, { purpose: 'reset_password', userId: user.id, accountId: membership.account_id, to: user.email }));
}

const BAD_LINK = () => new ApiError('invalid_token', 'This reset link is unknown, expired or already used: ask for a new one', [{ field: 'token', message: 'not a live reset token' }]);

export interface PasswordResetAnswer {
  object: 'password_reset';
  /** Every factor still on the account, with the date it was added; `suspended` ones wait for the owner. */
  factors: FactorView[];
  /** Removed because the reset was what confirmed the e-mail (created before anyone proved the address). */
  removed_factors: FactorView[];
  next: string;
}

/**
 * Sets the new password and ends every session of the user (whoever held the old password is out),
 * and any sign-in still waiting for its second factor. The factors:
 * - the e-mail was not confirmed before: the reset confirms it, and every factor made before (by
 *   whoever signed up with this address) is removed;
 * - otherwise a factor added in the 24 hours before is suspended until the owner, signed in with the
 *   new password, confirms or removes it.
 * The answer lists them all with their dates; the person is told by e-mail and notification.
 */
export async function resetPassword(deps: NoticeDeps, token: string, password: string, meta: RequestMeta): Promise<PasswordResetAnswer> {
  if (!looksLikeToken(token, 'pwr')) throw BAD_LINK();
  const hash = hashToken(token);
  const passwordHash = await hashPassword(password);
  const { answer, woken } = await deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const row = await lockLiveUserToken(tx, hash, 'reset_password', now);
    if (!row || !(await useUserToken(tx, hash, now))) throw BAD_LINK();
    const user = await getUser(tx, row.user_id, true);
    if (!user) throw BAD_LINK();
    await setPasswordHash(tx, user.id, passwordHash, now);
    let removed: FactorRow[] = [];
    let suspended: FactorRow[] = [];
    if (!user.email_verified_at) {
      // The link reached this address: it is the user's, and nothing set up before this proof is.
      await markEmailVerified(tx, user.id, now);
      removed = await removeAllFactors(tx, user.id, now);
    } else {
      suspended = await suspendFactorsAddedSince(tx, user.id, new Date(now.getTime() - SUSPEND_WINDOW_MS), now);
    }
    await revokeUserSessions(tx, user.id, 'password_reset', now);
    // Device cookies exempt a browser from the e-mail's sign-in delay: none survives a reset.
    await deleteUserDeviceTokens(tx, user.id);
    await expireUserTokens(tx, user.id, 'login_challenge', now);
    if (row.account_id) {
      await auditPeopleEvent(tx, { accountId: row.account_id, actor: user.id, action: 'auth.password.reset', target: user.id, route: '/v1/auth/password/reset', status: 200, meta, at: now });
    }
    const woken = await writeFactorNotice(tx, deps, { userId: user.id, change: { kind: 'password_reset', suspended, removed }, ip: meta.ip, at: now });
    const factors = (await listUserFactors(tx, user.id)).map(presentFactor);
    const answer: PasswordResetAnswer = {
      object: 'password_reset',
      factors,
      removed_factors: removed.map(presentFactor),
      next: factors.some((f) => f.suspended)
        ? 'Sign in with the new password, then confirm (POST /v1/auth/factors/{id}/confirm) or remove (DELETE /v1/auth/factors/{id}) each suspended factor'
        : 'Sign in with the new password',
    };
    return { answer, woken };
  });
  await announceFactorNotice(deps, woken);
  return answer;
}
