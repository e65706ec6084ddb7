import { ApiError } from '../../kernel/errors.js';
import { canManageRole, type Role } from '../identity/roles.js';

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
}

export function teamActorOf(auth: { accountId: string; applicationId: string | null; scopes: readonly string[]; session?: { userId: string; role: Role } | undefined }): TeamActor {
  if (auth.session) return { accountId: auth.accountId, role: auth.session.role, actorId: auth.session.userId, userId: auth.session.userId };
  return { accountId: auth.accountId, role: auth.scopes.includes('*') ? 'owner' : 'admin', actorId: auth.applicationId ?? 'sandbox', userId: null };
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
