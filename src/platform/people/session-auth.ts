import { hashToken, looksLikeToken } from '../../infra/identity/opaque-token.js';
import { closedAccountScopes, isRole, ROLE_SCOPES, type Role } from '../../infra/identity/roles.js';
import { findSessionAuth, revokeSession, touchSession } from './storage/session-repository.js';
import type { PeopleDeps } from './people-deps.js';

/** A request made with a dashboard session: the member acting and how fresh their proof is. */
export interface SessionActor {
  sessionId: string;
  userId: string;
  role: Role;
  authenticatedAt: Date;
  emailVerified: boolean;
  accountClosed: boolean;
}

export interface SessionGrant {
  accountId: string;
  scopes: readonly string[];
  actor: SessionActor;
}

/** A session token's shape, checked before any lookup. */
export const isSessionToken = (token: string): boolean => looksLikeToken(token, 'st');

/**
 * What a session token may do now, or null: unknown, revoked, past its absolute end, idle past the
 * idle limit, or its member left the account. No cache: a revoked session stops at its next request
 * (dashboard traffic is light next to the API keys' hot path, which keeps its cache).
 */
export async function authenticateSession(deps: Pick<PeopleDeps, 'db' | 'clock' | 'config'>, token: string): Promise<SessionGrant | null> {
  if (!isSessionToken(token)) return null;
  const now = deps.clock.now();
  const row = await findSessionAuth(deps.db, hashToken(token), now);
  if (!row) return null;
  if (row.last_used_at.getTime() + deps.config.people.sessionIdleSeconds * 1000 <= now.getTime()) {
    await revokeSession(deps.db, row.id, 'idle', now);
    return null;
  }
  if (!row.role || !isRole(row.role)) return null; // removed from the team: the session acts for no one
  await touchSession(deps.db, row.id, now);
  const accountClosed = row.account_closed_at !== null;
  const scopes = accountClosed ? closedAccountScopes(ROLE_SCOPES[row.role]) : ROLE_SCOPES[row.role];
  return {
    accountId: row.account_id,
    scopes,
    actor: {
      sessionId: row.id,
      userId: row.user_id,
      role: row.role,
      authenticatedAt: row.authenticated_at,
      emailVerified: row.email_verified_at !== null,
      accountClosed,
    },
  };
}
