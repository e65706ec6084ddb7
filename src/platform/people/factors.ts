import { ApiError, notFound } from '../../kernel/errors.js';
import { confirmFactor, listUserFactors, TOTP_FACTOR_ID, type FactorRow } from './storage/factor-repository.js';
import { deleteRecoveryCodes, getUser, setTotpSecret } from '../../infra/storage/repositories/user-repository.js';
import { deleteUserPasskey } from './storage/webauthn-repository.js';
import { announceFactorNotice, writeFactorNotice, type NoticeDeps } from './factor-notice.js';
import type { PeopleDeps, RequestMeta } from './people-deps.js';
import type { SessionActor } from './session-auth.js';

/** One sign-in factor as the reset answer and GET /v1/auth/factors show it. */
export interface FactorView {
  id: string;
  object: 'factor';
  type: 'totp' | 'passkey' | 'sso';
  name: string;
  created_at: string;
  /** Suspended by a password reset (added in the 24 hours before it): signs nobody in until confirmed. */
  suspended: boolean;
}

export const presentFactor = (f: FactorRow): FactorView => ({
  id: f.id,
  object: 'factor',
  type: f.kind,
  name: f.name,
  created_at: f.created_at.toISOString(),
  suspended: f.suspended_at !== null,
});

/** Every factor of the signed-in user, oldest first. */
export async function listMyFactors(deps: Pick<PeopleDeps, 'db'>, actor: SessionActor): Promise<{ data: FactorView[]; has_more: false }> {
  return { data: (await listUserFactors(deps.db, actor.userId)).map(presentFactor), has_more: false };
}

async function factorOf(deps: Pick<PeopleDeps, 'db'>, actor: SessionActor, id: string): Promise<FactorRow> {
  const factor = (await listUserFactors(deps.db, actor.userId)).find((f) => f.id === id);
  if (!factor) throw notFound('Factor');
  return factor;
}

/**
 * The owner, signed in with the new password (and a recent proof: the route asks), says a suspended
 * factor is theirs: it signs in again. Told by e-mail like any change of factor.
 */
export async function confirmMyFactor(deps: NoticeDeps, actor: SessionActor, id: string, meta: RequestMeta): Promise<FactorView> {
  const factor = await factorOf(deps, actor, id);
  if (!factor.suspended_at) throw new ApiError('invalid_state', 'This factor is not suspended: nothing to confirm');
  const now = deps.clock.now();
  const woken = await deps.db.transaction(async (tx) => {
    if (!(await confirmFactor(tx, actor.userId, id))) throw new ApiError('invalid_state', 'This factor is not suspended: nothing to confirm');
    return writeFactorNotice(tx, deps, { userId: actor.userId, change: { kind: 'factor_confirmed', name: factor.kind === 'totp' ? 'TOTP' : factor.name }, ip: meta.ip, at: now });
  });
  await announceFactorNotice(deps, woken);
  return presentFactor({ ...factor, suspended_at: null });
}

/**
 * Removes a factor from the review list: any passkey, or a TOTP secret a reset suspended (its codes
 * may be somebody else's: no code is asked). A TOTP in use is turned off at POST /v1/auth/2fa/disable
 * with a code, as before.
 */
export async function removeMyFactor(deps: NoticeDeps, actor: SessionActor, id: string, meta: RequestMeta): Promise<void> {
  const factor = await factorOf(deps, actor, id);
  const now = deps.clock.now();
  if (factor.kind === 'totp' && !factor.suspended_at) {
    throw new ApiError('invalid_state', 'TOTP is in use: turn it off at POST /v1/auth/2fa/disable with a current code or a recovery code');
  }
  const woken = await deps.db.transaction(async (tx) => {
    if (id === TOTP_FACTOR_ID) {
      const user = await getUser(tx, actor.userId, true);
      if (!user?.totp_suspended_at) throw notFound('Factor');
      await setTotpSecret(tx, actor.userId, null, now);
      await deleteRecoveryCodes(tx, actor.userId);
      return writeFactorNotice(tx, deps, { userId: actor.userId, change: { kind: 'totp_disabled' }, ip: meta.ip, at: now });
    }
    const removed = await deleteUserPasskey(tx, actor.userId, id);
    if (!removed) throw notFound('Factor');
    return writeFactorNotice(tx, deps, { userId: actor.userId, change: { kind: 'passkey_removed', name: removed.name }, ip: meta.ip, at: now });
  });
  await announceFactorNotice(deps, woken);
}
