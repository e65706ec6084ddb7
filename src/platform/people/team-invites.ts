import { ApiError, notFound } from '../../kernel/errors.js';
import { newId } from '../../kernel/ids.js';
import { page } from '../../kernel/page.js';
import { hashToken, looksLikeToken, newOpaqueToken } from '../../infra/identity/opaque-token.js';
import { isRole, type Role } from '../../infra/identity/roles.js';
import { queueMailTo } from '../mail/mail-outbox.js';
import { getAccountFlags, getAccountName } from './storage/account-repository.js';
import {
  getInvite, insertInvite, listPendingInvites, lockLiveInvite, markInviteAccepted, revokeInvite, revokePendingInvites, type InviteRow,
} from './storage/invite-repository.js';
import { getMembership, insertMembership } from './storage/membership-repository.js';
import { emailKey, findUserByEmail, getUser } from '../../infra/storage/repositories/user-repository.js';
import { assertPlanAllows } from '../billing/plan-limits.js';
import { requireInviterStillHolds } from './invite-grantor.js';
import { assertInviteBudget } from './invite-limits.js';
import { inviteMail } from './invite-mail.js';
import { auditPeopleEvent } from './people-audit.js';
import type { PeopleDeps, RequestMeta } from './people-deps.js';
import type { SessionActor } from './session-auth.js';
import { requireGrant, requireManage, type TeamActor } from './team-actor.js';

// docs/guides/api.md#contract-people: an invite is good for 7 days, once.
export const INVITE_DAYS = 7;

export interface InviteView {
  id: string;
  object: 'invite';
  email: string;
  role: Role;
  invited_by: string;
  created_at: string;
  expires_at: string;
}

const presentInvite = (i: InviteRow): InviteView => ({
  id: i.id,
  object: 'invite',
  email: i.email,
  role: i.role as Role,
  invited_by: i.invited_by,
  created_at: i.created_at.toISOString(),
  expires_at: i.expires_at.toISOString(),
});

/**
 * Invites an e-mail address to the account with a role. The `inv_` token is single-use, valid 7
 * days, stored as its SHA-256 only, and travels in the sealed e-mail alone: it is NOT in this answer,
 * not even for API clients. Only whoever reads the invited mailbox can accept, so the inviter cannot
 * accept in the invitee's name (the e-mail match at acceptance is then checked against an address
 * the token actually reached). A new invite to the same address replaces the pending one.
 */
export async function createInvite(deps: PeopleDeps, actor: TeamActor, input: { email: string; role: string }): Promise<InviteView> {
  if (!isRole(input.role)) throw new ApiError('validation_error', `Unknown role ${input.role}`, [{ field: 'role', message: 'not a role' }]);
  const role = input.role;
  requireGrant(actor, role, 'invite someone as', deps.clock.now(), deps.config.people.stepUpSeconds);
  return deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const existing = await findUserByEmail(tx, input.email);
    if (existing && (await getMembership(tx, actor.accountId, existing.id))) {
      throw new ApiError('invalid_state', 'This person is already a member of the account: change their role instead', [{ field: 'email', message: 'already a member' }]);
    }
    await assertPlanAllows(tx, actor.accountId, 'team_members', now, emailKey(input.email));
    await assertInviteBudget(tx, actor.accountId, emailKey(input.email), now);
    await revokePendingInvites(tx, actor.accountId, now, input.email);
    const token = newOpaqueToken('inv');
    const row = await insertInvite(tx, {
      id: newId('ivt'), accountId: actor.accountId, email: input.email, role, tokenHash: hashToken(token), invitedBy: actor.actorId,
      at: now, expiresAt: new Date(now.getTime() + INVITE_DAYS * 86_400_000),
    });
    const link = `${deps.config.people.dashboardUrl}/accept-invite?token=${token}`;
    const mail = inviteMail(await getAccountName(tx, actor.accountId), role, link, token, INVITE_DAYS);
    // queueMailTo seals the body: the outbox never holds the token in clear (0010_people.ts).
    await queueMailTo(tx, deps.secrets, {
      accountId: actor.accountId,
      to: row.email,
      subject: mail.subject,
      text: mail.text,
      sourceKey: `invite:${hashToken(token).toString('hex').slice(0, 32)}`,
      at: now,
    });
    return presentInvite(row);
  });
}

export async function listInvites(deps: Pick<PeopleDeps, 'db' | 'clock'>, accountId: string, limit: number, startingAfter?: string) {
  const p = page(await listPendingInvites(deps.db, accountId, deps.clock.now(), limit + 1, startingAfter), limit);
  return { data: p.data.map(presentInvite), has_more: p.has_more };
}

/** A pending invite stops working; an accepted, revoked or unknown one is 404 (nothing to revoke). */
export async function cancelInvite(deps: Pick<PeopleDeps, 'db' | 'clock'>, actor: TeamActor, id: string): Promise<void> {
  const invite = await getInvite(deps.db, actor.accountId, id);
  if (!invite || !isRole(invite.role)) throw notFound('Invite');
  // An admin may not withdraw an owner's invitation of another owner either: the same matrix.
  requireManage(actor, invite.role, 'revoke the invite of');
  if (!(await revokeInvite(deps.db, actor.accountId, id, deps.clock.now()))) throw notFound('Invite');
}

const BAD_INVITE = () => new ApiError('invalid_token', 'This invite is unknown, expired, revoked or already used: ask for a new one', [{ field: 'token', message: 'not a live invite' }]);

export interface AcceptedInvite {
  object: 'membership';
  account_id: string;
  account_name: string;
  user_id: string;
  role: Role;
  joined_at: string;
}

/**
 * The signed-in user joins the invite's account with its role. Their e-mail must be the invited one
 * (403 otherwise, and the invite stays usable by its addressee). Single use: the invite row is locked
 * and marked in the same transaction as the membership.
 *
 * Accepting does NOT mark the e-mail verified, on purpose: the route takes verified sessions only
 * (allowUnverified: false), and an invite cannot serve as proof of the mailbox everywhere. Its mail
 * is filed under the INVITING account, so in the sandbox (GET /v1/sandbox/mail) the inviting team
 * can read the token: an admin could invite an address they do not own, sign up with it and
 * "verify" it by accepting. The verification link stays the one proof (filed under the user's own account).
 */
export async function acceptInvite(deps: PeopleDeps, actor: SessionActor, token: string, meta: RequestMeta): Promise<AcceptedInvite> {
  if (!looksLikeToken(token, 'inv')) throw BAD_INVITE();
  return deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const invite = await lockLiveInvite(tx, hashToken(token), now);
    if (!invite || !isRole(invite.role)) throw BAD_INVITE();
    const flags = await getAccountFlags(tx, invite.account_id);
    if (!flags || flags.closed_at) throw BAD_INVITE();
    const user = await getUser(tx, actor.userId);
    if (!user) throw new ApiError('unauthorized', 'Sign in again');
    if (emailKey(user.email) !== invite.email_key) {
      throw new ApiError('forbidden', 'This invite was sent to another e-mail address: sign in as the invited address to accept it', [{ field: 'token', message: 'invite for another e-mail address' }]);
    }
    await requireInviterStillHolds(tx, { ...invite, role: invite.role });
    if (!(await insertMembership(tx, { accountId: invite.account_id, userId: user.id, role: invite.role, at: now }))) {
      throw new ApiError('invalid_state', 'You are already a member of this account');
    }
    await markInviteAccepted(tx, invite.id, user.id, now);
    // The HTTP audit hook files the call under the session's own account; the team's account learns it here.
    await auditPeopleEvent(tx, { accountId: invite.account_id, actor: user.id, action: 'team.invite.accept', target: invite.id, route: '/v1/team/invites/accept', status: 200, meta, at: now });
    return {
      object: 'membership' as const,
      account_id: invite.account_id,
      account_name: (await getAccountName(tx, invite.account_id)) ?? '',
      user_id: user.id,
      role: invite.role,
      joined_at: now.toISOString(),
    };
  });
}
