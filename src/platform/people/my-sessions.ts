import { ApiError, notFound } from '../../kernel/errors.js';
import { ROLE_SCOPES, type Role } from '../../infra/identity/roles.js';
import { listUserMemberships } from './storage/membership-repository.js';
import { countPasskeys } from './storage/passkey-count.js';
import { getSession, listUserSessions, revokeSession } from './storage/session-repository.js';
import { getUser } from '../../infra/storage/repositories/user-repository.js';
import type { PeopleDeps } from './people-deps.js';
import { presentSession, type SessionView } from './session-lifecycle.js';
import type { SessionActor } from './session-auth.js';

export async function getMe(deps: Pick<PeopleDeps, 'db' | 'config'>, actor: SessionActor) {
  const user = await getUser(deps.db, actor.userId);
  const session = await getSession(deps.db, actor.sessionId);
  if (!user || !session) throw new ApiError('unauthorized', 'Sign in again');
  const memberships = await listUserMemberships(deps.db, user.id);
  return {
    object: 'me' as const,
    user: {
      id: user.id,
      email: user.email,
      name: user.name,
      email_verified: user.email_verified_at !== null,
      totp_enabled: user.totp_enabled_at !== null,
      passkeys: await countPasskeys(deps.db, user.id),
      created_at: user.created_at.toISOString(),
    },
    role: actor.role,
    scopes: [...ROLE_SCOPES[actor.role]],
    memberships: memberships.map((m) => ({ account_id: m.account_id, account_name: m.account_name, role: m.role as Role })),
    session: presentSession(session, deps.config.people.sessionIdleSeconds),
  };
}

export async function listMySessions(deps: Pick<PeopleDeps, 'db' | 'clock' | 'config'>, actor: SessionActor): Promise<{ data: (SessionView & { current: boolean })[]; has_more: false }> {
  const rows = await listUserSessions(deps.db, actor.userId, deps.clock.now());
  const idle = deps.config.people.sessionIdleSeconds;
  const live = rows.filter((r) => r.last_used_at.getTime() + idle * 1000 > deps.clock.now().getTime());
  return { data: live.map((r) => ({ ...presentSession(r, idle), current: r.id === actor.sessionId })), has_more: false };
}

/** Ends one of the user's own sessions (another device); the current one too (like logout). */
export async function revokeMySession(deps: Pick<PeopleDeps, 'db' | 'clock'>, actor: SessionActor, id: string): Promise<void> {
  const s = await getSession(deps.db, id);
  if (!s || s.user_id !== actor.userId || s.revoked_at) throw notFound('Session');
  await revokeSession(deps.db, id, 'revoked_by_user', deps.clock.now());
}

export async function logout(deps: Pick<PeopleDeps, 'db' | 'clock'>, actor: SessionActor): Promise<void> {
  await revokeSession(deps.db, actor.sessionId, 'logout', deps.clock.now());
}
