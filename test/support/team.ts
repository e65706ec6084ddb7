import type { FastifyInstance } from 'fastify';
import { bearer, PASSWORD, verifiedUser, type Tokens } from './people.js';

/** Helpers of the team tests: an owner invites, the invitee accepts and signs in on the team's account. */
export type Member = Tokens & { email: string; userId: string };

/**
 * The token of the newest invite mail to `to`, read by the invitee's own session as a person reads
 * their mailbox (captured in the sandbox: GET /v1/sandbox/mail; the inviting team sees the token
 * redacted). By addressee: two invites sent at one instant have no order.
 */
export async function inviteToken(app: FastifyInstance, inviteeSession: string, to: string): Promise<string> {
  const r = await app.inject({ method: 'GET', url: '/v1/sandbox/mail?limit=100', headers: bearer(inviteeSession) });
  if (r.statusCode !== 200) throw new Error(`mail: ${r.statusCode} ${r.body}`);
  const mail = (r.json().data as { to: string; subject: string; text: string }[]).find((m) => m.to === to && /^Convite/.test(m.subject));
  const token = mail?.text.match(/[?&]token=(inv_[A-Za-z0-9]+)/)?.[1];
  if (!token) throw new Error(`no invite mail to ${to}`);
  return token;
}

/** A session of `email` acting on `accountId` (password sign-in with account_id). */
export async function signInTo(app: FastifyInstance, email: string, accountId: string): Promise<Tokens> {
  const r = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email, password: PASSWORD, account_id: accountId } });
  if (r.statusCode !== 200) throw new Error(`login: ${r.statusCode} ${r.body}`);
  return r.json();
}

/** A verified user invited by `owner` with `role`, accepted, signed in on the owner's account. */
export async function joinTeam(app: FastifyInstance, owner: Tokens, role: string): Promise<Member> {
  const u = await verifiedUser(app);
  const inv = await app.inject({ method: 'POST', url: '/v1/team/invites', headers: bearer(owner), payload: { email: u.email, role } });
  if (inv.statusCode !== 201) throw new Error(`invite: ${inv.statusCode} ${inv.body}`);
  const token = await inviteToken(app, u.session_token, u.email);
  const acc = await app.inject({ method: 'POST', url: '/v1/team/invites/accept', headers: bearer(u), payload: { token } });
  if (acc.statusCode !== 200) throw new Error(`accept: ${acc.statusCode} ${acc.body}`);
  const s = await signInTo(app, u.email, owner.session.account_id);
  return { ...s, email: u.email, userId: u.session.user_id };
}
