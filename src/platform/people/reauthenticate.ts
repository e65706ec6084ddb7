import { ApiError } from '../../kernel/errors.js';
import { verifyPassword } from '../../infra/identity/password.js';
import { getSession, markAuthenticated } from './storage/session-repository.js';
import { getUser } from '../../infra/storage/repositories/user-repository.js';
import { uncountTrustedDeviceTry } from './device-cookie.js';
import { passwordTryFailed, startPasswordTry } from './password-guard.js';
import type { PeopleDeps, RequestMeta } from './people-deps.js';
import { presentSession, type AuthMethod, type SessionView } from './session-lifecycle.js';
import type { SessionActor } from './session-auth.js';
import { checkTotpCode } from './second-factor.js';
import { throttledSecondFactor } from './second-factor-throttle.js';

/**
 * Step-up: the signed-in user proves again who they are; for the next 10 minutes
 * the session may do sensitive things. A password, or a TOTP code when the user enabled TOTP
 * (passkeys step up at POST /v1/auth/webauthn/reauthentication/options and /verify). Failures count like sign-in
 * failures: a stolen session cannot guess the password faster than a stranger could; and like them the
 * user's browser with its device cookie is not held by the e-mail's delay (password-guard.ts). Codes
 * also count on the user's second-factor count (second-factor-throttle.ts).
 */
export async function reauthenticate(
  deps: PeopleDeps,
  actor: SessionActor,
  proof: { password?: string | undefined; code?: string | undefined },
  meta: RequestMeta,
): Promise<SessionView> {
  const user = await getUser(deps.db, actor.userId);
  if (!user) throw new ApiError('unauthorized', 'Sign in again');
  if ((proof.password === undefined) === (proof.code === undefined)) {
    throw new ApiError('validation_error', 'Send either password or code', [{ field: proof.password === undefined ? 'password' : 'code', message: 'send exactly one of password and code' }]);
  }
  const tried = await startPasswordTry(deps, user.email, meta);
  let method: AuthMethod;
  if (proof.password !== undefined) {
    const ok = user.password_hash !== null && (await verifyPassword(user.password_hash, proof.password));
    if (!ok) {
      await passwordTryFailed(deps, tried);
      throw new ApiError('unauthorized', 'Wrong password', [{ field: 'password', message: 'does not match' }]);
    }
    method = 'password';
  } else {
    if (!user.totp_enabled_at) throw new ApiError('validation_error', 'TOTP is not enabled for this user: confirm with your password', [{ field: 'code', message: 'TOTP is not enabled' }]);
    if (!(await throttledSecondFactor(deps, user.id, tried.device, () => checkTotpCode(deps, user, proof.code!)))) {
      await passwordTryFailed(deps, tried);
      throw new ApiError('unauthorized', 'Wrong or already used code', [{ field: 'code', message: 'not the current code' }]);
    }
    method = 'totp';
  }
  await uncountTrustedDeviceTry(deps, tried.device);
  await markAuthenticated(deps.db, actor.sessionId, method, deps.clock.now());
  const session = (await getSession(deps.db, actor.sessionId))!;
  return presentSession(session, deps.config.people.sessionIdleSeconds);
}
