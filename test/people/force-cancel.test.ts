// POST /v1/account/force-cancel. Owner only, step-up, in one transaction: keys
// revoked (401 at once in this process), sessions revoked, webhooks disabled ('account_closed');
// afterwards nothing new is issued (403 account_closed) while an owner who signs in again still
// reads the documents; the same Idempotency-Key replays the first answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { emitSettled, readyIssuer, sale } from '../support/nfce-flow.js';
import { bearer, PASSWORD, verifiedUser, type Tokens } from '../support/people.js';
import { keyWithScopes, webhookReceiver } from '../support/security-world.js';
import { joinTeam, signInTo } from '../support/team.js';

let t: TestApp;
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;

beforeAll(async () => {
  t = await createTestApp({ role: 'all' });
  receiver = await webhookReceiver();
}, 60_000);
afterAll(async () => {
  await t?.runtime.close();
  await receiver?.close();
});

const req = (method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: object) =>
  t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
/** The session's last proof, `minutes` ago (the step-up window is 10 minutes). */
const ageSession = (s: Tokens, minutes: number) =>
  t.db.query(`UPDATE sessions SET authenticated_at = authenticated_at - interval '${minutes} minutes' WHERE id = $1`, [s.session.id]);

describe('force-cancel', () => {
  it('needs the owner and a recent sign-in; closes everything at once; documents stay readable; replays', async () => {
    const owner = await verifiedUser(t.app);
    const acc = owner.session.account_id;
    const created = await req('POST', '/v1/applications', bearer(owner), { name: 'POS', scopes: ['*'] });
    expect(created.statusCode, created.body).toBe(201);
    const key = { authorization: `Bearer ${created.json().key as string}` };
    const issuerId = await readyIssuer(t, key);
    const { note } = await emitSettled(t, key, sale(issuerId));
    expect(note.status).toBe('authorized');
    const hook = await req('POST', '/v1/webhooks', key, { url: receiver.url, event_types: ['*'] });
    expect(hook.statusCode, hook.body).toBe(201);
    const admin = await joinTeam(t.app, owner, 'admin');
    const body = { confirm: acc, reason: 'Closing the shop' };

    // Not an admin, not a key, not a stale session, not without the account id typed again.
    const byAdmin = await req('POST', '/v1/account/force-cancel', bearer(admin), body);
    expect([byAdmin.statusCode, byAdmin.json().error]).toEqual([403, 'forbidden']);
    expect((await req('POST', '/v1/account/force-cancel', key, body)).statusCode).toBe(403);
    await ageSession(owner, 11);
    const stale = await req('POST', '/v1/account/force-cancel', bearer(owner), body);
    expect([stale.statusCode, stale.json().error]).toEqual([403, 'reauthentication_required']);
    expect((await req('POST', '/v1/auth/reauthenticate', bearer(owner), { password: PASSWORD })).statusCode).toBe(200);
    const unconfirmed = await req('POST', '/v1/account/force-cancel', bearer(owner), { confirm: 'acc_other' });
    expect([unconfirmed.statusCode, unconfirmed.json().details?.[0]?.field]).toEqual([422, 'confirm']);
    expect((await req('GET', '/v1/issuers', key)).statusCode).toBe(200); // still open

    const idem = { 'idempotency-key': `close-${acc}` };
    const closed = await req('POST', '/v1/account/force-cancel', { ...bearer(owner), ...idem }, body);
    expect(closed.statusCode, closed.body).toBe(200);
    // The owner's and the admin's sessions on this account (the admin's sign-up session is on their own).
    expect(closed.json()).toMatchObject({ id: acc, object: 'account_closure', revoked_api_keys: 1, revoked_sessions: 2, disabled_webhooks: 1 });

    // Keys: 401 at once in this process (the key cache was dropped); sessions: 401.
    expect((await req('GET', '/v1/issuers', key)).statusCode).toBe(401);
    for (const s of [owner, admin]) {
      expect((await req('GET', '/v1/auth/session', bearer(s))).statusCode).toBe(401);
      expect((await req('POST', '/v1/auth/refresh', {}, { refresh_token: s.refresh_token })).statusCode).toBe(401); // the family ended too
    }
    const hooks = await t.db.query<{ enabled: boolean; disabled_reason: string }>('SELECT enabled, disabled_reason FROM webhook_endpoints WHERE account_id = $1', [acc]);
    expect(hooks.rows).toEqual([{ enabled: false, disabled_reason: 'account_closed' }]);
    const account = await t.db.query<{ closed_at: Date | null; closed_reason: string }>('SELECT closed_at, closed_reason FROM accounts WHERE id = $1', [acc]);
    expect(account.rows[0]).toMatchObject({ closed_at: expect.any(Date), closed_reason: 'Closing the shop' });
    const audit = await t.db.query<{ actor: string; target: string }>("SELECT actor, target FROM audit_log WHERE account_id = $1 AND action = 'account.force_cancel'", [acc]);
    expect(audit.rows).toEqual([{ actor: owner.session.user_id, target: acc }]);

    // The owner signs in again: documents read and export; nothing new is issued.
    const again = await signInTo(t.app, owner.email, acc);
    expect((await req('GET', `/v1/nfce/${note.id as string}`, bearer(again))).statusCode).toBe(200);
    const xml = await req('GET', `/v1/nfce/${note.id as string}/xml`, bearer(again));
    expect(xml.statusCode).toBe(200);
    expect(xml.body).toContain('<nfeProc');
    const emit = await req('POST', '/v1/nfce', bearer(again), sale(issuerId));
    expect([emit.statusCode, emit.json().error]).toEqual([403, 'account_closed']);
    for (const [url, payload] of [['/v1/applications', { name: 'again', scopes: ['*'] }], ['/v1/team/invites', { email: 'x@example.com', role: 'viewer' }]] as const) {
      expect((await req('POST', url, bearer(again), payload)).json().error, url).toBe('account_closed');
    }
    // A key that escaped the revocation (created meanwhile) only reads: the closed account refuses its writes.
    const escaped = await keyWithScopes(t, acc, ['*']);
    expect((await req('GET', '/v1/issuers', escaped)).statusCode).toBe(200);
    const byEscaped = await req('POST', '/v1/nfce', escaped, sale(issuerId));
    expect([byEscaped.statusCode, byEscaped.json().error]).toEqual([403, 'account_closed']);

    // The same Idempotency-Key replays the first answer; without it, the account is already closed.
    const replay = await req('POST', '/v1/account/force-cancel', { ...bearer(again), ...idem }, body);
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotency-replay']).toBe('true');
    expect(replay.json()).toEqual(closed.json());
    const twice = await req('POST', '/v1/account/force-cancel', bearer(again), body);
    expect([twice.statusCode, twice.json().error]).toEqual([403, 'account_closed']);
  }, 60_000);
});
