import { ApiError } from '../../kernel/errors.js';
import { getSession, revokeSession, setAuthenticatedAt } from './storage/session-repository.js';
import type { PeopleDeps, RequestMeta } from './people-deps.js';
import { chooseAccount, startSession, type AuthMethod, type IssuedSession } from './session-lifecycle.js';
import type { SessionActor } from './session-auth.js';

/**
 * A member of several accounts moves the dashboard to another one: a new session on that account
 * (its role there, its single sign-on rule), the same proof (methods and time: switching is not a
 * new sign-in, so it gives no step-up), and the old session ends.
 */
export async function switchAccount(deps: PeopleDeps, actor: SessionActor, accountId: string, meta: RequestMeta): Promise<IssuedSession> {
  return deps.db.transaction(async (tx) => {
    const current = await getSession(tx, actor.sessionId, true);
    if (!current || current.revoked_at) throw new ApiError('unauthorized', 'Sign in again');
    const methods = current.methods as AuthMethod[];
    const target = await chooseAccount(tx, actor.userId, methods, accountId);
    const now = deps.clock.now();
    const issued = await startSession(tx, deps, { userId: actor.userId, accountId: target, methods, meta });
    await setAuthenticatedAt(tx, issued.session.id, current.authenticated_at);
    await revokeSession(tx, current.id, 'switched_account', now);
    return { ...issued, session: { ...issued.session, authenticated_at: current.authenticated_at.toISOString() } };
  });
}
