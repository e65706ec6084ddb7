import { ApiError, notFound } from '../../kernel/errors.js';
import { page } from '../../kernel/page.js';
import { isRole, type Role } from '../../infra/identity/roles.js';
import { deleteMembership, getMembership, listMembers, lockOwners, setMembershipRole, type MemberRow } from './storage/membership-repository.js';
import { revokeAccountSessions } from './storage/session-repository.js';
import { auditPeopleEvent } from './people-audit.js';
import type { PeopleDeps, RequestMeta } from './people-deps.js';
import type { SessionActor } from './session-auth.js';
import { keepAnOwner, requireGrant, requireManage, type TeamActor } from './team-actor.js';

export interface MemberView {
  id: string;
  object: 'member';
  user_id: string;
  email: string;
  name: string;
  role: Role;
  totp_enabled: boolean;
  joined_at: string;
}

export function presentMember(m: MemberRow): MemberView {
  return {
    id: m.user_id,
    object: 'member',
    user_id: m.user_id,
    email: m.email,
    name: m.name,
    role: m.role as Role,
    totp_enabled: m.totp_enabled_at !== null,
    joined_at: m.created_at.toISOString(),
  };
}

/** GET /v1/team/members: the account's members, by user id (docs/decisions.md#api-conventions list). */
export async function listTeamMembers(deps: Pick<PeopleDeps, 'db'>, accountId: string, limit: number, startingAfter?: string) {
  const p = page(await listMembers(deps.db, accountId, limit + 1, startingAfter), limit);
  return { data: p.data.map(presentMember), has_more: p.has_more };
}

async function memberView(deps: Pick<PeopleDeps, 'db'>, accountId: string, userId: string): Promise<MemberView> {
  const row = (await listMembers(deps.db, accountId, 1, undefined, userId))[0];
  if (!row) throw notFound('Member');
  return presentMember(row);
}

/**
 * A member's new role. The actor must be allowed to manage both the member's current role and the
 * new one (canManageRole: an admin never makes or unmakes an owner). The owners are locked first,
 * in every team change, so two demotions of the last two owners are decided one after the other and
 * the account always keeps one (docs/guides/api.md#contract-people).
 */
export async function changeMemberRole(deps: Pick<PeopleDeps, 'db' | 'clock' | 'config'>, actor: TeamActor, userId: string, role: string): Promise<MemberView> {
  if (!isRole(role)) throw new ApiError('validation_error', `Unknown role ${role}`, [{ field: 'role', message: 'not a role' }]);
  // The route asks every session for a recent proof already; this adds the actor's own rights.
  requireGrant(actor, role, 'make someone', deps.clock.now(), deps.config.people.stepUpSeconds);
  await deps.db.transaction(async (tx) => {
    const owners = await lockOwners(tx, actor.accountId);
    const member = await getMembership(tx, actor.accountId, userId, true);
    if (!member || !isRole(member.role)) throw notFound('Member');
    requireManage(actor, member.role, 'change the role of');
    if (role !== 'owner') keepAnOwner(owners, userId, 'be demoted');
    await setMembershipRole(tx, actor.accountId, userId, role, deps.clock.now());
  });
  return memberView(deps, actor.accountId, userId);
}

/**
 * Removes a member: their sessions on this account end at once (a session of a removed member
 * already acts for no one, session-auth.ts; revoking them also shows in their session list).
 */
export async function removeMember(deps: Pick<PeopleDeps, 'db' | 'clock'>, actor: TeamActor, userId: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const owners = await lockOwners(tx, actor.accountId);
    const member = await getMembership(tx, actor.accountId, userId, true);
    if (!member || !isRole(member.role)) throw notFound('Member');
    requireManage(actor, member.role, 'remove');
    keepAnOwner(owners, userId, 'be removed');
    await deleteMembership(tx, actor.accountId, userId);
    await revokeAccountSessions(tx, actor.accountId, 'member_removed', deps.clock.now(), userId);
  });
}

/** The session's member leaves its account; the last owner cannot (nobody would be left to manage it). */
export async function leaveTeam(deps: Pick<PeopleDeps, 'db' | 'clock'>, actor: SessionActor, accountId: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const owners = await lockOwners(tx, accountId);
    keepAnOwner(owners, actor.userId, 'leave');
    await deleteMembership(tx, accountId, actor.userId);
    await revokeAccountSessions(tx, accountId, 'member_left', deps.clock.now(), actor.userId);
  });
}

/**
 * The owner hands the account to another member: the target becomes owner and the caller admin, in
 * one transaction (never zero owners, never a moment with the caller demoted and the target not yet
 * promoted). Owner only: checked here, on the role, rather than by a route scope, so that a retry
 * with the same Idempotency-Key by the now-admin caller still gets the first answer replayed.
 */
export async function transferOwnership(deps: Pick<PeopleDeps, 'db' | 'clock'>, actor: SessionActor, accountId: string, targetUserId: string, meta: RequestMeta): Promise<MemberView> {
  if (actor.role !== 'owner') throw new ApiError('forbidden', `Your role (${actor.role}) does not allow this: only an owner transfers ownership`);
  if (actor.accountClosed) throw new ApiError('account_closed', 'This account was closed: its documents stay readable for export, nothing can be changed');
  if (targetUserId === actor.userId) throw new ApiError('validation_error', 'You already own the account: name another member', [{ field: 'user_id', message: 'is you' }]);
  await deps.db.transaction(async (tx) => {
    const owners = await lockOwners(tx, accountId);
    // Under the lock: a concurrent demotion may have taken the caller's ownership meanwhile.
    if (!owners.includes(actor.userId)) throw new ApiError('forbidden', 'You are no longer an owner of this account');
    const target = await getMembership(tx, accountId, targetUserId, true);
    if (!target) throw new ApiError('not_found', 'No member with this user_id in the account', [{ field: 'user_id', message: 'not a member' }]);
    const now = deps.clock.now();
    await setMembershipRole(tx, accountId, targetUserId, 'owner', now);
    await setMembershipRole(tx, accountId, actor.userId, 'admin', now);
    // The route-level entry names no target (the user id is in the body): this one does.
    await auditPeopleEvent(tx, { accountId, actor: actor.userId, action: 'team.ownership.transfer', target: targetUserId, route: '/v1/team/transfer-ownership', status: 200, meta, at: now });
  });
  return memberView(deps, accountId, targetUserId);
}
