// The team. Invite -> sealed mail -> accept by the invited address only; revoke;
// expiry; role changes with step-up; the last owner stays; admins never touch owners; ownership
// transfer; removal ends the member's sessions; audit entries name the acting user. Through HTTP
// against the real app, on a manual clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { ManualClock } from '../support/clock.js';
import { bearer, newEmail, PASSWORD, signupUser, verifiedUser, type Tokens } from '../support/people.js';
import { dumpDatabase } from '../support/security-world.js';
import { inviteToken, joinTeam, signInTo } from '../support/team.js';

const clock = new ManualClock('2026-11-25T12:00:00.000Z');
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock });
}, 60_000);
afterAll(async () => {
  await t.app.close();
});

const req = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, who: Tokens | { authorization: string }, payload?: object) =>
  t.app.inject({ method, url, headers: 'authorization' in who ? who : bearer(who), ...(payload ? { payload } : {}) });
const reauth = (s: Tokens) => req('POST', '/v1/auth/reauthenticate', s, { password: PASSWORD });
const roleOf = async (owner: Tokens, userId: string) =>
  ((await req('GET', '/v1/team/members?limit=100', owner)).json().data as { id: string; role: string }[]).find((m) => m.id === userId)?.role;

describe('invites', () => {
  it('invite -> sealed mail -> accepted by the invited address only, once; listed, then a member', async () => {
    const owner = await verifiedUser(t.app);
    const invitee = await verifiedUser(t.app);
    const stranger = await verifiedUser(t.app);
    const created = await req('POST', '/v1/team/invites', owner, { email: invitee.email.toUpperCase(), role: 'developer' });
    expect(created.statusCode, created.body).toBe(201);
    const invite = created.json();
    expect(invite).toMatchObject({ object: 'invite', role: 'developer', invited_by: owner.session.user_id });
    expect(invite.id).toMatch(/^ivt_/);
    expect(created.body).not.toMatch(/inv_[A-Za-z0-9]{43}/); // the token is in the mail only
    expect(new Date(invite.expires_at).getTime() - clock.now().getTime()).toBe(7 * 86_400_000);
    // The outbox keeps the body sealed; the sandbox mailbox shows the link.
    const stored = await t.db.query<{ body_text: string; body_blob: string | null }>("SELECT body_text, body_blob FROM mail_messages WHERE account_id = $1 AND subject LIKE 'Convite%'", [owner.session.account_id]);
    expect(stored.rows[0]!.body_blob).not.toBeNull();
    expect(stored.rows[0]!.body_text).not.toMatch(/inv_/);
    const token = await inviteToken(t.app, invitee.session_token, invitee.email.toUpperCase());
    const pending = await req('GET', '/v1/team/invites', owner);
    expect(pending.json().data.map((i: { id: string }) => i.id)).toEqual([invite.id]);

    // Another signed-in user cannot use it, and it stays usable by its addressee.
    const wrong = await req('POST', '/v1/team/invites/accept', stranger, { token });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({ error: 'forbidden', message: expect.stringMatching(/another e-mail address/) });
    // An API key cannot accept: it is a person's act.
    const byKey = await t.newAccount();
    expect((await req('POST', '/v1/team/invites/accept', byKey.auth, { token })).statusCode).toBe(403);

    const accepted = await req('POST', '/v1/team/invites/accept', invitee, { token });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ object: 'membership', account_id: owner.session.account_id, role: 'developer', user_id: invitee.session.user_id });
    expect((await req('POST', '/v1/team/invites/accept', invitee, { token })).json().error).toBe('invalid_token');
    expect((await req('GET', '/v1/team/invites', owner)).json().data).toEqual([]);
    // The token is nowhere in clear: not in any table (its SHA-256 and the sealed mail only), not in the audit log.
    expect(await dumpDatabase(t.db)).not.toContain(token);

    const members = (await req('GET', '/v1/team/members', owner)).json();
    expect(members.has_more).toBe(false);
    const me = members.data.find((m: { id: string }) => m.id === invitee.session.user_id);
    expect(me).toEqual({ id: invitee.session.user_id, object: 'member', user_id: invitee.session.user_id, email: invitee.email, name: 'Ana Souza', role: 'developer', totp_enabled: false, joined_at: clock.now().toISOString() });
    // Pages of the list (docs/decisions.md#api-conventions): by user id, `limit` and `starting_after`.
    const first = (await req('GET', '/v1/team/members?limit=1', owner)).json();
    expect(first.has_more).toBe(true);
    const rest = (await req('GET', `/v1/team/members?limit=1&starting_after=${first.data[0].id as string}`, owner)).json();
    expect([...first.data, ...rest.data].map((m: { id: string }) => m.id).sort()).toEqual([owner.session.user_id, invitee.session.user_id].sort());
    expect(rest.has_more).toBe(false);
    // The invitee signs in on the team's account with the developer's scopes.
    const s = await signInTo(t.app, invitee.email, owner.session.account_id);
    expect((await req('GET', '/v1/auth/session', s)).json().role).toBe('developer');
    expect((await req('GET', '/v1/team/members', s)).statusCode).toBe(200);
    expect((await req('POST', '/v1/team/invites', s, { email: newEmail(), role: 'viewer' })).statusCode).toBe(403);

    // The acceptance is audited in the team's account with the accepting user.
    const audit = await t.db.query<{ actor: string; target: string }>("SELECT actor, target FROM audit_log WHERE account_id = $1 AND action = 'team.invite.accept'", [owner.session.account_id]);
    expect(audit.rows).toEqual([{ actor: invitee.session.user_id, target: invite.id }]);
  });

  it('a revoked invite and an expired one are invalid_token; an admin cannot invite an owner', async () => {
    const owner = await verifiedUser(t.app);
    const invitee = await verifiedUser(t.app);
    const first = (await req('POST', '/v1/team/invites', owner, { email: invitee.email, role: 'viewer' })).json();
    const revokedToken = await inviteToken(t.app, invitee.session_token, invitee.email);
    expect((await req('DELETE', `/v1/team/invites/${first.id}`, owner)).statusCode).toBe(204);
    expect((await req('DELETE', `/v1/team/invites/${first.id}`, owner)).statusCode).toBe(404);
    expect((await req('POST', '/v1/team/invites/accept', invitee, { token: revokedToken })).json().error).toBe('invalid_token');

    clock.advance(1000); // the second invite mail is the newer one
    expect((await req('POST', '/v1/team/invites', owner, { email: invitee.email, role: 'viewer' })).statusCode).toBe(201);
    const token = await inviteToken(t.app, invitee.session_token, invitee.email);
    expect(token).not.toBe(revokedToken);
    clock.advance(7 * 86_400_000 + 1000);
    const fresh = await signInTo(t.app, invitee.email, invitee.session.account_id);
    const expired = await req('POST', '/v1/team/invites/accept', fresh, { token });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().error).toBe('invalid_token');

    // Accepting needs a confirmed e-mail (the route is not allowUnverified; team-invites.ts says why).
    const unverified = await signupUser(t.app);
    expect((await req('POST', '/v1/team/invites', fresh, { email: unverified.email, role: 'viewer' })).statusCode).toBe(201);
    // The unconfirmed user cannot read mail other accounts sent to their address:
    // the route refuses them before looking at the token anyway.
    const unverifiedToken = `inv_${'A'.repeat(43)}`;
    const notYet = await req('POST', '/v1/team/invites/accept', unverified, { token: unverifiedToken });
    expect([notYet.statusCode, notYet.json().error]).toEqual([403, 'email_not_verified']);

    const owner2 = await signInTo(t.app, owner.email, owner.session.account_id);
    const admin = await joinTeam(t.app, owner2, 'admin');
    const refused = await req('POST', '/v1/team/invites', admin, { email: newEmail(), role: 'owner' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('forbidden');
    expect((await req('POST', '/v1/team/invites', admin, { email: newEmail(), role: 'admin' })).statusCode).toBe(201);
  });
});

describe('roles', () => {
  it('a role change needs a recent sign-in; the last owner cannot be demoted, removed or leave; admins never touch owners', async () => {
    const owner = await verifiedUser(t.app);
    const acc = owner.session.account_id;
    const dev = await joinTeam(t.app, owner, 'developer');
    const admin = await joinTeam(t.app, owner, 'admin');

    clock.advance(11 * 60_000); // past the 10 minutes of step-up; within the idle hour
    const stale = await req('PATCH', `/v1/team/members/${dev.userId}/role`, admin, { role: 'viewer' });
    expect(stale.statusCode).toBe(403);
    expect(stale.json().error).toBe('reauthentication_required');
    expect((await reauth(admin)).statusCode).toBe(200);
    const changed = await req('PATCH', `/v1/team/members/${dev.userId}/role`, admin, { role: 'viewer' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ id: dev.userId, role: 'viewer' });
    // The member's session acts with the new role at its next request.
    expect((await req('GET', '/v1/auth/session', dev)).json().role).toBe('viewer');

    // An admin manages no owner: neither demote, promote to, nor remove.
    for (const [method, url, body] of [
      ['PATCH', `/v1/team/members/${owner.session.user_id}/role`, { role: 'admin' }],
      ['PATCH', `/v1/team/members/${dev.userId}/role`, { role: 'owner' }],
      ['DELETE', `/v1/team/members/${owner.session.user_id}`, undefined],
    ] as const) {
      const r = await req(method, url, admin, body);
      expect(r.statusCode, `${method} ${url}`).toBe(403);
      expect(r.json().error).toBe('forbidden');
    }
    expect(await roleOf(owner, owner.session.user_id)).toBe('owner');

    // The last owner: not demoted, not removed, cannot leave.
    const ownerNow = await signInTo(t.app, owner.email, acc);
    for (const r of [
      await req('PATCH', `/v1/team/members/${owner.session.user_id}/role`, ownerNow, { role: 'admin' }),
      await req('DELETE', `/v1/team/members/${owner.session.user_id}`, ownerNow),
      await req('POST', '/v1/team/leave', ownerNow),
    ]) {
      expect(r.statusCode, r.body).toBe(409);
      expect(r.json().error).toBe('invalid_state');
    }
    // Audit entries carry the acting user (the HTTP audit hook, written in batches: flushed first).
    await t.app.auditLog.flush();
    const entries = (await t.db.query<{ actor: string; target: string; status_code: number }>(
      "SELECT actor, target, status_code FROM audit_log WHERE account_id = $1 AND route = '/v1/team/members/:id/role' AND status_code = 200", [acc])).rows;
    expect(entries).toEqual([{ actor: admin.userId, target: dev.userId, status_code: 200 }]);
  });

  it('an owner transfers ownership (step-up): the target is owner, the caller admin; a member leaves', async () => {
    const owner = await verifiedUser(t.app);
    const acc = owner.session.account_id;
    const dev = await joinTeam(t.app, owner, 'developer');
    const viewer = await joinTeam(t.app, owner, 'viewer');
    const admin = await joinTeam(t.app, owner, 'admin');
    expect((await req('POST', '/v1/team/transfer-ownership', admin, { user_id: dev.userId })).statusCode).toBe(403);

    clock.advance(11 * 60_000);
    expect((await req('POST', '/v1/team/transfer-ownership', owner, { user_id: dev.userId })).json().error).toBe('reauthentication_required');
    await reauth(owner);
    const moved = await req('POST', '/v1/team/transfer-ownership', owner, { user_id: dev.userId });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ id: dev.userId, role: 'owner' });
    expect(await roleOf(dev, owner.session.user_id)).toBe('admin');
    const audit = await t.db.query<{ actor: string; target: string }>("SELECT actor, target FROM audit_log WHERE account_id = $1 AND action = 'team.ownership.transfer'", [acc]);
    expect(audit.rows).toEqual([{ actor: owner.session.user_id, target: dev.userId }]);

    // A member leaves: their session on this account stops at once.
    expect((await req('POST', '/v1/team/leave', viewer)).statusCode).toBe(204);
    expect((await req('GET', '/v1/team/members', viewer)).statusCode).toBe(401);
    expect(await roleOf(dev, viewer.userId)).toBeUndefined();
  });

  it('removing a member revokes their sessions on the account', async () => {
    const owner = await verifiedUser(t.app);
    const dev = await joinTeam(t.app, owner, 'developer');
    const second = await signInTo(t.app, dev.email, owner.session.account_id);
    expect((await req('GET', '/v1/team/members', second)).statusCode).toBe(200);
    expect((await req('DELETE', `/v1/team/members/${dev.userId}`, owner)).statusCode).toBe(204);
    for (const s of [dev, second]) {
      expect((await req('GET', '/v1/team/members', s)).statusCode).toBe(401);
      expect((await t.app.inject({ method: 'POST', url: '/v1/auth/refresh', payload: { refresh_token: s.refresh_token } })).statusCode).toBe(401);
    }
    const revoked = await t.db.query<{ revoked_reason: string }>('SELECT revoked_reason FROM sessions WHERE user_id = $1 AND account_id = $2', [dev.userId, owner.session.account_id]);
    expect(revoked.rows.map((r) => r.revoked_reason)).toEqual(['member_removed', 'member_removed']);
    // Their own account is untouched: they still sign in there.
    expect((await signInTo(t.app, dev.email, (await t.db.query<{ account_id: string }>("SELECT account_id FROM memberships WHERE user_id = $1", [dev.userId])).rows[0]!.account_id)).session.user_id).toBe(dev.userId);
    await t.app.auditLog.flush();
    const audit = await t.db.query<{ actor: string; target: string }>("SELECT actor, target FROM audit_log WHERE account_id = $1 AND route = '/v1/team/members/:id' AND method = 'DELETE'", [owner.session.account_id]);
    expect(audit.rows).toEqual([{ actor: owner.session.user_id, target: dev.userId }]);
  });
});
