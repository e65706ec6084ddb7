import { ApiError } from '../../kernel/errors.js';
import { dummyPasswordHash, hashPassword, needsRehash, verifyPassword } from '../../infra/identity/password.js';
import { hashToken, newOpaqueToken } from '../../infra/identity/opaque-token.js';
import { findUserByEmail, totpActive, upgradePasswordHash } from '../../infra/storage/repositories/user-repository.js';
import { insertUserToken } from './storage/user-token-repository.js';
import { countPasskeys } from './storage/passkey-count.js';
import { passwordTryFailed, passwordTrySucceeded, startPasswordTry } from './password-guard.js';
import type { PeopleDeps, RequestMeta } from './people-deps.js';
import { chooseAccount, startSession, type IssuedSession } from './session-lifecycle.js';

/** A second factor is due: answer it at POST /v1/auth/login/second-factor (or with a passkey). */
export interface LoginChallenge {
  object: 'login_challenge';
  challenge_token: string;
  methods: ('totp' | 'recovery_code' | 'passkey')[];
  expires_at: string;
}

// Long enough to open the authenticator app, short enough that a stolen challenge is stale.
export const CHALLENGE_SECONDS = 300;

const WRONG = () => new ApiError('unauthorized', 'Wrong e-mail or password');

/**
 * Password sign-in. An unknown e-mail, a user without a password (single sign-on only) and a wrong
 * password get the same answer after the same work (one argon2id verification), so neither the
 * words nor the time tell whether the e-mail has a user (bench/login-timing.ts).
 */
export async function loginWithPassword(
  deps: PeopleDeps,
  input: { email: string; password: string; account_id?: string | undefined },
  meta: RequestMeta,
): Promise<IssuedSession | LoginChallenge> {
  const tried = await startPasswordTry(deps, input.email, meta);
  const user = await findUserByEmail(deps.db, input.email);
  const stored = user?.password_hash ?? (await dummyPasswordHash());
  const ok = (await verifyPassword(stored, input.password)) && user?.password_hash != null;
  if (!ok || !user) {
    await passwordTryFailed(deps, tried);
    throw WRONG();
  }
  await passwordTrySucceeded(deps, tried, input.email);
  if (needsRehash(stored)) {
    // The parameters were raised since this hash was made: store the stronger one now that we have the password.
    await upgradePasswordHash(deps.db, user.id, stored, await hashPassword(input.password), deps.clock.now());
  }
  const methods: LoginChallenge['methods'] = [];
  if (totpActive(user)) methods.push('totp', 'recovery_code');
  if ((await countPasskeys(deps.db, user.id)) > 0) methods.push('passkey');
  return deps.db.transaction(async (tx) => {
    const accountId = await chooseAccount(tx, user.id, ['password'], input.account_id);
    if (methods.length === 0) return startSession(tx, deps, { userId: user.id, accountId, methods: ['password'], meta });
    const token = newOpaqueToken('mfa');
    const now = deps.clock.now();
    const expiresAt = new Date(now.getTime() + CHALLENGE_SECONDS * 1000);
    await insertUserToken(tx, { tokenHash: hashToken(token), userId: user.id, purpose: 'login_challenge', accountId, data: { first: 'password' }, at: now, expiresAt });
    return { object: 'login_challenge' as const, challenge_token: token, methods, expires_at: expiresAt.toISOString() };
  });
}
