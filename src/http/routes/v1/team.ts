import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponse, errorResponses } from '../../../kernel/errors.js';
import { teamActorOf } from '../../../platform/people/team-actor.js';
import { acceptInvite, cancelInvite, createInvite, listInvites } from '../../../platform/people/team-invites.js';
import { changeMemberRole, leaveTeam, listTeamMembers, removeMember, transferOwnership } from '../../../platform/people/team-members.js';
import { requestMeta, sessionOf } from '../../request-meta.js';
import { IdParams, ListOf, ListQuery } from '../../schemas/common.js';
import { AcceptedInvite, AcceptInviteBody, CreateInviteBody, Invite, Member, RoleBody, TransferBody } from '../../schemas/team.js';

/**
 * The team of an account: members, invites, roles, leaving, ownership. The role
 * matrix is infra/identity/roles.ts: sessions act with their role's scopes, API keys with
 * members:read / members:write use the member routes too; what acts as a person (accept, leave,
 * transfer) is sessionOnly.
 */
export const teamRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['team'];
  const read = { scope: 'members:read' };
  const write = { scope: 'members:write' };

  app.get('/v1/team/members', {
    config: read,
    schema: { tags, summary: 'List the members of the account and their roles', querystring: ListQuery, response: { 200: ListOf(Member, 'MemberList'), ...errorResponses(401, 403, 422, 429) } },
  }, async (request) => listTeamMembers(app.ctx, request.auth.accountId, request.query.limit ?? 20, request.query.starting_after));

  app.post('/v1/team/invites', {
    config: write,
    schema: {
      tags, summary: 'Invite someone by e-mail with a role',
      description: 'E-mails a single-use link valid 7 days (`/accept-invite?token=inv_...` on the dashboard). The token is only in that e-mail, never in this answer: only the invited mailbox can accept. An admin cannot invite an owner; nobody invites with a role whose scopes they do not hold (403 `exceeds_own_rights`); inviting an admin or owner needs a recent sign-in from a session (403 `reauthentication_required`). At most 20 invitations per account and 3 per address in 24 hours, revoked ones included (429 `invite_limit_reached`, Retry-After). A new invite to the same address replaces the pending one.',
      body: CreateInviteBody,
      response: { 201: Invite, ...errorResponses(400, 401, 403, 409, 415, 422, 429), 402: errorResponse('`plan_limit_reached`: the plan\'s limit on team members (pending invites included) is reached; upgrade to invite more') },
    },
  }, async (request, reply) => reply.code(201).send(await createInvite(app.ctx, teamActorOf(request.auth), request.body)));

  app.get('/v1/team/invites', {
    config: read,
    schema: { tags, summary: 'Pending invites (not accepted, revoked or expired), newest first', querystring: ListQuery, response: { 200: ListOf(Invite, 'InviteList'), ...errorResponses(401, 403, 422, 429) } },
  }, async (request) => listInvites(app.ctx, request.auth.accountId, request.query.limit ?? 20, request.query.starting_after));

  app.delete('/v1/team/invites/:id', {
    config: write,
    schema: { tags, summary: 'Revoke a pending invite: its link stops working', params: IdParams, response: { 204: Type.Null(), ...errorResponses(401, 403, 404, 429) } },
  }, async (request, reply) => {
    await cancelInvite(app.ctx, teamActorOf(request.auth), request.params.id);
    return reply.code(204).send(null);
  });

  app.post('/v1/team/invites/accept', {
    config: { sessionOnly: true },
    schema: {
      tags, summary: 'Accept an invite as the signed-in user',
      description: 'The signed-in user\'s e-mail must be the invited address (403 otherwise) and confirmed. The invite works once; unknown, expired, revoked or used: 400 `invalid_token`. Whoever sent it must still hold the role\'s rights (403 `exceeds_own_rights` after they were demoted or removed, or their key revoked: ask for a new invite). Then sign in with `account_id` to act on the team.',
      body: AcceptInviteBody,
      response: { 200: AcceptedInvite, ...errorResponses(400, 401, 403, 409, 415, 422, 429) },
    },
  }, async (request) => acceptInvite(app.ctx, sessionOf(request), request.body.token, requestMeta(request)));

  app.patch('/v1/team/members/:id/role', {
    config: { ...write, stepUp: true },
    schema: {
      tags, summary: 'Change a member\'s role (needs a recent sign-in)',
      description: 'Only an owner makes or unmakes owners; nobody gives a role whose scopes they do not hold (403 `exceeds_own_rights`: an admin cannot make a `billing` member). The last owner cannot be demoted (409 `invalid_state`). A session needs a proof within the last 10 minutes (POST /v1/auth/reauthenticate).',
      params: IdParams, body: RoleBody,
      response: { 200: Member, ...errorResponses(401, 403, 404, 409, 415, 422, 429) },
    },
  }, async (request) => changeMemberRole(app.ctx, teamActorOf(request.auth), request.params.id, request.body.role));

  app.delete('/v1/team/members/:id', {
    config: write,
    schema: {
      tags, summary: 'Remove a member: their sessions on this account end at once',
      description: 'An admin cannot remove an owner; the last owner cannot be removed (409 `invalid_state`).',
      params: IdParams, response: { 204: Type.Null(), ...errorResponses(401, 403, 404, 409, 429) },
    },
  }, async (request, reply) => {
    await removeMember(app.ctx, teamActorOf(request.auth), request.params.id);
    return reply.code(204).send(null);
  });

  app.post('/v1/team/leave', {
    config: { sessionOnly: true },
    schema: { tags, summary: 'Leave the account of this session (the last owner cannot)', response: { 204: Type.Null(), ...errorResponses(401, 403, 409, 429) } },
  }, async (request, reply) => {
    await leaveTeam(app.ctx, sessionOf(request), request.auth.accountId);
    return reply.code(204).send(null);
  });

  app.post('/v1/team/transfer-ownership', {
    config: { sessionOnly: true, stepUp: true },
    schema: {
      tags, summary: 'Make another member owner; you become admin (owner only, recent sign-in)',
      body: TransferBody,
      response: { 200: Member, ...errorResponses(401, 403, 404, 415, 422, 429) },
    },
  }, async (request) => transferOwnership(app.ctx, sessionOf(request), request.auth.accountId, request.body.user_id, requestMeta(request)));
};
