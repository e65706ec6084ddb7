import { ApiError } from '../../kernel/errors.js';
import { newId } from '../../kernel/ids.js';
import { hashToken, looksLikeToken, newOpaqueToken } from '../../infra/identity/opaque-token.js';
import type { Queryable } from '../../infra/storage/db.js';
import { getAccountFlags } from './storage/account-repository.js';
import { getMembership, listUserMemberships } from './storage/membership-repository.js';
import {
  getSession,
  insertRefreshToken,
  insertSession,
  lockRefreshToken,
  markRefreshTokenUsed,
  replaceSessionToken,
  revokeSession,
  revokeSessionsBeyond,
  type SessionRow,
} from './storage/session-repository.js';
import { auditPeopleEvent } from './people-audit.js';
import type { PeopleDeps, RequestMeta } from './people-deps.js';

/** How a person proved who they are; a session keeps the list (step-up adds to it). */
export type AuthMethod = 'password' | 'totp' | 'recovery_code' | 'passkey' | 'sso';

/** What sign-in, second factor, passkey and single sign-on all answer. */
export interface IssuedSession {
  object: 'session';
  session: SessionView;
  /** `st_...`: `Authorization: Bearer` for API clients of the dashboard; also set as the `__Host-session` cookie. */
  session_token: string;
  /** `rt_...`: exchanged once at POST /v1/auth/refresh for a new pair. */
  refresh_token: string;
}

export interface SessionView {
  id: string;
  object: 'session_info';
  user_id: string;
  account_id: string;
  methods: string[];
  authenticated_at: string;
  created_at: string;
  last_used_at: string;
  /** The absolute end: no refresh goes past it. */
  expires_at: string;
  /** The session ends here unless used before (idle lifetime). */
  idle_expires_at: string;
  ip: string | null;
  user_agent: string | null;
}

export function presentSession(s: SessionRow, idleSeconds: number): SessionView {
  const idleEnd = new Date(Math.min(s.last_used_at.getTime() + idleSeconds * 1000, s.expires_at.getTime()));
  return {
    id: s.id,
    object: 'session_info',
    user_id: s.user_id,
    account_id: s.account_id,
    methods: s.methods,
    authenticated_at: s.authenticated_at.toISOString(),
    created_at: s.created_at.toISOString(),
    last_used_at: s.last_used_at.toISOString(),
    expires_at: s.expires_at.toISOString(),
    idle_expires_at: idleEnd.toISOString(),
    ip: s.ip,
    user_agent: s.user_agent,
  };
}

/**
 * The account a sign-in acts on: the one asked for (the user must be a member), else the oldest
 * membership. An account that requires single sign-on refuses any other method.
 */
export async function chooseAccount(tx: Queryable, userId: string, methods: readonly AuthMethod[], wanted?: string): Promise<string> {
  const memberships = await listUserMemberships(tx, userId);
  const chosen = wanted ? memberships.find((m) => m.account_id === wanted) : memberships[0];
  if (!chosen) {
    throw wanted
      ? new ApiError('forbidden', 'You are not a member of this account', [{ field: 'account_id', message: 'not one of your accounts' }])
      : new ApiError('forbidden', 'You are not a member of any account; ask an owner for an invite');
  }
  const flags = await getAccountFlags(tx, chosen.account_id);
  if (flags?.require_sso && !methods.includes('sso')) {
    throw new ApiError('sso_required', 'This account requires single sign-on: sign in with GET /v1/auth/oauth/{provider}/start');
  }
  return chosen.account_id;
}

/**
 * Live sessions a person may hold at once. Opening one more ends the least recently used: a script that
 * signs in in a loop cannot grow the table without end, and the list of one's sessions
 * (GET /v1/auth/sessions, up to 100) always shows every live one, so each can be seen and revoked.
 */
export const MAX_LIVE_SESSIONS = 50;

/** Opens a session (a new refresh family) for a user who just proved who they are. */
export async function startSession(
  tx: Queryable,
  deps: Pick<PeopleDeps, 'clock' | 'config'>,
  s: { userId: string; accountId: string; methods: AuthMethod[]; meta: RequestMeta },
): Promise<IssuedSession> {
  const now = deps.clock.now();
  const people = deps.config.people;
  const sessionToken = newOpaqueToken('st');
  const refreshToken = newOpaqueToken('rt');
  const row = await insertSession(tx, {
    id: newId('ses'),
    userId: s.userId,
    accountId: s.accountId,
    tokenHash: hashToken(sessionToken),
    methods: s.methods,
    at: now,
    expiresAt: new Date(now.getTime() + people.sessionAbsoluteSeconds * 1000),
    ip: s.meta.ip,
    userAgent: s.meta.userAgent,
  });
  await insertRefreshToken(tx, row.id, hashToken(refreshToken), now);
  await auditPeopleEvent(tx, {
    accountId: s.accountId, actor: s.userId, action: 'auth.session.create', target: row.id,
    route: '/v1/auth/login', status: 200, meta: s.meta, at: now,
  });
  const evicted = await revokeSessionsBeyond(tx, s.userId, MAX_LIVE_SESSIONS, now);
  if (evicted > 0) {
    await auditPeopleEvent(tx, {
      accountId: s.accountId, actor: s.userId, action: 'auth.session.evict', target: row.id,
      route: '/v1/auth/login', status: 200, meta: s.meta, at: now,
    });
  }
  return { object: 'session', session: presentSession(row, people.sessionIdleSeconds), session_token: sessionToken, refresh_token: refreshToken };
}

const refused = () => new ApiError('unauthorized', 'The refresh token is invalid, expired or revoked: sign in again', [{ field: 'refresh_token', message: 'not a live refresh token' }]);

/**
 * Trades a refresh token for a new session token and refresh token (rotation, OAuth 2.0 Security
 * BCP 4.14.2). A token already traded is tolerated for a short grace (two tabs refreshing at once
 * each get a pair); later it can only be a copy in a thief's hands, so the whole family (the
 * session and every token it ever had) is revoked and the event audited.
 */
export async function refreshSession(deps: PeopleDeps, refreshToken: string, meta: RequestMeta): Promise<IssuedSession> {
  if (!looksLikeToken(refreshToken, 'rt')) throw refused();
  const hash = hashToken(refreshToken);
  const outcome = await deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const people = deps.config.people;
    const token = await lockRefreshToken(tx, hash);
    if (!token) return { error: refused() };
    const session = await getSession(tx, token.session_id, true);
    if (!session || session.revoked_at || session.expires_at <= now) return { error: refused() };
    if (session.last_used_at.getTime() + people.sessionIdleSeconds * 1000 <= now.getTime() && !token.used_at) {
      // Idle past the limit: the refresh token of an abandoned session does not revive it.
      await revokeSession(tx, session.id, 'idle', now);
      return { error: refused() };
    }
    if (token.used_at && now.getTime() - token.used_at.getTime() > people.refreshReuseGraceSeconds * 1000) {
      await revokeSession(tx, session.id, 'refresh_token_reused', now);
      await auditPeopleEvent(tx, {
        accountId: session.account_id, actor: session.user_id, action: 'auth.refresh.reuse_detected', target: session.id,
        route: '/v1/auth/refresh', status: 401, meta, at: now,
      });
      return { error: new ApiError('unauthorized', 'This refresh token was already used: every token of its session is revoked; sign in again', [{ field: 'refresh_token', message: 'already used' }]) };
    }
    const membership = await getMembership(tx, session.account_id, session.user_id);
    if (!membership) {
      await revokeSession(tx, session.id, 'membership_ended', now);
      return { error: refused() };
    }
    await markRefreshTokenUsed(tx, hash, now);
    const sessionToken = newOpaqueToken('st');
    const nextRefresh = newOpaqueToken('rt');
    await replaceSessionToken(tx, session.id, hashToken(sessionToken), now, new Date(now.getTime() + people.refreshReuseGraceSeconds * 1000));
    await insertRefreshToken(tx, session.id, hashToken(nextRefresh), now);
    const row = { ...session, last_used_at: now };
    return { issued: { object: 'session' as const, session: presentSession(row, people.sessionIdleSeconds), session_token: sessionToken, refresh_token: nextRefresh } };
  });
  if ('error' in outcome) throw outcome.error;
  return outcome.issued;
}
