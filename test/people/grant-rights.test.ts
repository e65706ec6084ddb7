// (nothing grants more than its granter holds) and item 1's step-up for invites and
// promotions to admin or owner. The attack of the issue, over HTTP: a key with only members:write
// (403 on issuers, 403 on creating keys) invited an admin, who then made a key with
// issuers:write, applications:write, audit:read. Now every route that hands out rights (invite,
// role change, key creation) refuses what the acting key or member does not hold, naming the excess.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { ManualClock } from '../support/clock.js';
import { bearer, newEmail, PASSWORD, verifiedUser, type Tokens } from '../support/people.js';
import { keyWithScopes } from '../support/security-world.js';
import { inviteToken, joinTeam } from '../support/team.js';

const clock = new ManualClock('2026-11-25T12:00:00.000Z');
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock });
}, 60_000);
afterAll(async () => {
  await t.app.close();
});

type Who = Tokens | { authorization: string };
const req = (method: 'GET' | 'POST' | 'PATCH', url: string, who: Who, payload?: object) =>
  t.app.inject({ method, url, headers: 'authorization' in who ? who : bearer(who), ...(payload ? { payload } : {}) });
const invite = (who: Who, role: string, email = newEmail('invitee')) => req('POST', '/v1/team/invites', who, { email, role });
const ADMIN_SCOPES = ['account:write', 'issuers:write', 'nfce:write', 'nfe:write', 'nfse:write', 'applications:write', 'webhooks:write', 'notifications:write', 'members:write', 'audit:read', 'billing:read', 'exports:write'];

describe('nothing grants more than its granter holds', () => {
  it('the attack of the issue: a members:write key cannot invite an admin (nor anyone it does not cover)', async () => {
    const owner = await verifiedUser(t.app);
    const made = await req('POST', '/v1/applications', owner, { name: 'team bot', scopes: ['members:write'] });
    expect(made.statusCode, made.body).toBe(201);
    const key = { authorization: `Bearer ${made.json().key as string}` };
    expect((await req('GET', '/v1/issuers', key)).statusCode).toBe(403);
    expect((await req('POST', '/v1/applications', key, { name: 'x', scopes: ['issuers:write'] })).statusCode).toBe(403);

    const asAdmin = await invite(key, 'admin');
    expect(asAdmin.statusCode, asAdmin.body).toBe(403);
    expect(asAdmin.json()).toMatchObject({ error: 'exceeds_own_rights', details: [{ field: 'role' }] });
    for (const s of ['issuers:write', 'applications:write', 'audit:read']) expect(asAdmin.json().message).toContain(`"${s}"`);
    expect(asAdmin.json().message).not.toContain('"members:write"');
    // Even a viewer reads documents this key cannot read.
    expect((await invite(key, 'viewer')).json()).toMatchObject({ error: 'exceeds_own_rights', message: expect.stringContaining('"issuers:read"') });
    // Nothing was sent: no pending invite.
    expect((await req('GET', '/v1/team/invites', owner)).json().data).toEqual([]);

    // A key holding every scope of the admin role may invite an admin (keys are not asked for step-up).
    const broad = await keyWithScopes(t, owner.session.account_id, ADMIN_SCOPES);
    expect((await invite(broad, 'admin')).statusCode).toBe(201);
  });

  it('a role change gives no role beyond the actor: a key cannot promote past its scopes, an admin cannot make billing', async () => {
    const owner = await verifiedUser(t.app);
    const dev = await joinTeam(t.app, owner, 'developer');
    const key = await keyWithScopes(t, owner.session.account_id, ['members:write', 'nfce:write']);
    const promoted = await req('PATCH', `/v1/team/members/${dev.userId}/role`, key, { role: 'admin' });
    expect(promoted.statusCode).toBe(403);
    expect(promoted.json()).toMatchObject({ error: 'exceeds_own_rights', message: expect.stringContaining('"issuers:write"') });

    // An admin holds billing:read only: making someone `billing` would give billing:write.
    const admin = await joinTeam(t.app, owner, 'admin');
    const toBilling = await req('PATCH', `/v1/team/members/${dev.userId}/role`, admin, { role: 'billing' });
    expect(toBilling.json()).toMatchObject({ error: 'exceeds_own_rights', message: expect.stringContaining('"billing:write"') });
    expect((await invite(admin, 'billing')).statusCode).toBe(403);
    // What the admin holds, it may give.
    expect((await req('PATCH', `/v1/team/members/${dev.userId}/role`, admin, { role: 'viewer' })).statusCode).toBe(200);
    expect((await invite(admin, 'developer')).statusCode).toBe(201);
  });

  it('a session creates no key beyond its role', async () => {
    const owner = await verifiedUser(t.app);
    const dev = await joinTeam(t.app, owner, 'developer');
    const root = await req('POST', '/v1/applications', dev, { name: 'root', scopes: ['*'] });
    expect(root.statusCode).toBe(403);
    expect(root.json()).toMatchObject({ error: 'exceeds_own_rights', message: expect.stringContaining('"*"') });
    const issuers = await req('POST', '/v1/applications', dev, { name: 'issuers', scopes: ['nfce:write', 'issuers:write'] });
    expect(issuers.json()).toMatchObject({ error: 'exceeds_own_rights', details: [{ field: 'scopes', message: expect.stringContaining('issuers:write') }] });
    expect((await req('POST', '/v1/applications', dev, { name: 'pos', scopes: ['nfce:write', 'issuers:read'] })).statusCode).toBe(201);
  });
});

describe('the accountant gains nothing beyond reading and exporting', () => {
  it('cannot invite anyone, change a role, take ownership or make a key; an admin may invite one, a viewer-scoped key may not', async () => {
    const owner = await verifiedUser(t.app);
    const accountant = await joinTeam(t.app, owner, 'accountant');
    const dev = await joinTeam(t.app, owner, 'developer');
    // No members:write: no invite of any role (themselves as owner least of all), no role change, not even their own.
    for (const role of ['owner', 'admin', 'accountant', 'viewer']) expect((await invite(accountant, role)).statusCode, role).toBe(403);
    expect((await req('PATCH', `/v1/team/members/${accountant.userId}/role`, accountant, { role: 'admin' })).statusCode).toBe(403);
    expect((await req('PATCH', `/v1/team/members/${dev.userId}/role`, accountant, { role: 'viewer' })).statusCode).toBe(403);
    expect((await req('POST', '/v1/team/transfer-ownership', accountant, { user_id: accountant.userId })).statusCode).toBe(403);
    // No applications:write: no key at all, however narrow (an exports-only key would outlive the membership).
    for (const scopes of [['exports:write'], ['*'], ['nfce:write']]) expect((await req('POST', '/v1/applications', accountant, { name: 'k', scopes })).statusCode).toBe(403);
    // Nor certificates, billing or webhooks.
    expect((await req('POST', '/v1/webhooks', accountant, { url: 'https://example.com/h', event_types: ['*'] })).statusCode).toBe(403);
    expect((await req('GET', '/v1/billing/subscription', accountant)).statusCode).toBe(403);

    // Giving the role is bounded like any other: an admin holds exports:write and may; a key of the viewer's reads may not.
    clock.advance(1000);
    const admin = await joinTeam(t.app, owner, 'admin');
    expect((await invite(admin, 'accountant')).statusCode).toBe(201);
    const reads = await keyWithScopes(t, owner.session.account_id, ['members:write', 'account:read', 'issuers:read', 'nfce:read', 'nfe:read', 'nfse:read', 'notifications:read', 'exports:read']);
    expect((await invite(reads, 'accountant')).json()).toMatchObject({ error: 'exceeds_own_rights', message: expect.stringContaining('"exports:write"') });
    // A developer made accountant loses issuing at once.
    expect((await req('PATCH', `/v1/team/members/${dev.userId}/role`, owner, { role: 'accountant' })).statusCode).toBe(200);
    expect((await req('POST', '/v1/applications', dev, { name: 'k', scopes: ['exports:read'] })).statusCode).toBe(403);
  });
});

describe('step-up for inviting or promoting to admin or owner', () => {
  it('a session proven more than 10 minutes ago invites a viewer, but an admin or owner only after a fresh proof', async () => {
    const owner = await verifiedUser(t.app);
    clock.advance(11 * 60_000);
    expect((await invite(owner, 'viewer')).statusCode).toBe(201);
    for (const role of ['admin', 'owner']) {
      const stale = await invite(owner, role);
      expect(stale.statusCode, role).toBe(403);
      expect(stale.json()).toMatchObject({ error: 'reauthentication_required', message: expect.stringContaining('/v1/auth/reauthenticate') });
    }
    expect((await req('GET', '/v1/team/invites?limit=100', owner)).json().data).toHaveLength(1);
    expect((await req('POST', '/v1/auth/reauthenticate', owner, { password: PASSWORD })).statusCode).toBe(200);
    expect((await invite(owner, 'admin')).statusCode).toBe(201);
    expect((await invite(owner, 'owner')).statusCode).toBe(201);
    // An API key is not asked (it cannot re-authenticate; its scopes bound it), as for key creation.
    const key = await keyWithScopes(t, owner.session.account_id, ['*']);
    expect((await invite(key, 'owner')).statusCode).toBe(201);
  });
});

describe('an invite is a grant in its inviter\'s name: it is not accepted once the inviter lost those rights', () => {
  it('an admin demoted, or a key revoked, after inviting: accepting is 403 exceeds_own_rights and the invite stays pending', async () => {
    clock.advance(11 * 60_000);
    const owner = await verifiedUser(t.app);
    const admin = await joinTeam(t.app, owner, 'admin');
    const invitee = await verifiedUser(t.app);
    expect((await invite(admin, 'developer', invitee.email)).statusCode).toBe(201);
    const token = await inviteToken(t.app, invitee.session_token, invitee.email);
    expect((await req('PATCH', `/v1/team/members/${admin.userId}/role`, owner, { role: 'viewer' })).statusCode).toBe(200);
    const refused = await req('POST', '/v1/team/invites/accept', invitee, { token });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'exceeds_own_rights', message: expect.stringContaining('new invite') });
    expect((await req('GET', '/v1/team/invites', owner)).json().data).toHaveLength(1);

    const made = await req('POST', '/v1/applications', owner, { name: 'inviter', scopes: ['*'] });
    const key = { authorization: `Bearer ${made.json().key as string}` };
    const other = await verifiedUser(t.app);
    expect((await invite(key, 'admin', other.email)).statusCode).toBe(201);
    const keyToken = await inviteToken(t.app, other.session_token, other.email);
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/applications/${made.json().id as string}`, headers: bearer(owner) })).statusCode).toBe(200);
    expect((await req('POST', '/v1/team/invites/accept', other, { token: keyToken })).json().error).toBe('exceeds_own_rights');
    // The owner, who still holds the role, can re-invite; that one is accepted.
    clock.advance(1000); // the new invite mail is the newer one
    expect((await invite(owner, 'developer', invitee.email)).statusCode).toBe(201);
    const fresh = await inviteToken(t.app, invitee.session_token, invitee.email);
    expect((await req('POST', '/v1/team/invites/accept', invitee, { token: fresh })).statusCode).toBe(200);
  });
});
