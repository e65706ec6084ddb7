import { ApiError } from '../../kernel/errors.js';
import { requireRoleWithinOwnRights } from '../../infra/identity/grants.js';
import { canManageRole, type Role } from '../../infra/identity/roles.js';
import { requireRecentProof, STEP_UP_ROLES } from './step-up.js';

/**
 * Who changes the team: a member's session (their role), or an API key with `members:write`. A key
 * is no member and has no role: it acts as the role whose scopes it holds, so the matrix stays one
 * table (roles.ts): a `*` key is as strong as an owner, any other `members:write` key as an admin
 * (ROLE_SCOPES.admin is the weakest role holding members:write), and never manages owners.
 */
export interface TeamActor {
  accountId: string;
  role: Role;
  /** The audit log's actor: the session's user id, or the key's application id. */
  actorId: string;
  /** Set for a session: the member acting. */
  userId: string | null;
  /** What the actor holds: a session its role's scopes, a key its own; it grants nothing beyond them. */
  scopes: readonly string[];
  /** A session's last proof (password, TOTP, passkey), for the step-up an admin or owner grant asks; null for a key. */
  provenAt: Date | null;
}

export function teamActorOf(auth: {
  accountId: string; applicationId: string | null; scopes: readonly string[]; session?: { userId: string; role: Role; authenticatedAt: Date } | undefined;
}): TeamActor {
  const { accountId, scopes } = auth;
  if (auth.session) return { accountId, role: auth.session.role, actorId: auth.session.userId, userId: auth.session.userId, scopes, provenAt: auth.session.authenticatedAt };
  return { accountId, role: scopes.includes('*') ? 'owner' : 'admin', actorId: auth.applicationId ?? 'sandbox', userId: null, scopes, provenAt: null };
}

/**
 * Giving `role` to someone (an invite, a promotion): the actor must be allowed to manage the role
 * (only owners make owners), hold every scope it acts with, and, for admin and
 * owner, have proven themselves recently like for a new API key.
 */
export function requireGrant(actor: TeamActor, role: Role, what: string, now: Date, stepUpSeconds: number): void {
  requireManage(actor, role, what);
  requireRoleWithinOwnRights(actor.scopes, role, what);
  if (STEP_UP_ROLES.has(role)) requireRecentProof(actor.provenAt, now, stepUpSeconds);
}

/** canManageRole as an answer: only an owner gives or takes the owner role. */
export function requireManage(actor: TeamActor, target: Role, what: string): void {
  if (!canManageRole(actor.role, target)) {
    throw new ApiError('forbidden', `Your role (${actor.role}) cannot ${what} an ${target}: only an owner manages owners`);
  }
}

/** The account must keep an owner: `owners` is the locked list (lockOwners). */
export function keepAnOwner(owners: readonly string[], leaving: string, what: string): void {
  if (owners.includes(leaving) && owners.length <= 1) {
    throw new ApiError('invalid_state', `The last owner cannot ${what}: make another member owner first (POST /v1/team/transfer-ownership or PATCH /v1/team/members/:id/role)`);
  }
}
