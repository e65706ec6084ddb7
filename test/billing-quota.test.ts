// Past the quota documents keep being issued (overage); with a hard cap the sale is
// refused 402 quota_exceeded BEFORE anything is numbered or sent to the authority. And who may
// change billing (role matrix), with the audit log recording the changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { periodOf } from '../src/platform/billing/period.js';
import type { TestApp } from './support/app.js';
import { createTestApp } from './support/app.js';
import { makeProduction, meterSynthetic } from './support/billing.js';
import { emitSettled, readyIssuer, sale } from './support/nfce-flow.js';
import { emitNfeSettled, invoice } from './support/nfe-flow.js';
import { bearer, verifiedUser } from './support/people.js';
import { eventually, startWebhookReceiver } from './support/webhook-receiver.js';
import { joinTeam } from './support/team.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ role: 'all' });
}, 60_000);
afterAll(async () => {
  await t.runtime.close();
});

const notesOf = async (issuerId: string) =>
  (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM notes WHERE issuer_id = $1', [issuerId])).rows[0]!.n;

describe('hard cap', () => {
  it('refuses the sale past the plan\'s NFC-e with 402 quota_exceeded naming the limit, before any note, number or authority call', async () => {
    const { auth, accountId } = await t.newAccount('Billing cap');
    await makeProduction(t.db, accountId);
    const issuerId = await readyIssuer(t, auth);
    const receiver = await startWebhookReceiver();
    const endpoint = await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: auth, payload: { url: receiver.url, event_types: ['billing.quota_reached'] } });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    const cap = await t.app.inject({ method: 'PATCH', url: '/v1/billing/subscription', headers: auth, payload: { hard_cap: true } });
    expect(cap.statusCode, cap.body).toBe(200);
    expect(cap.json().hard_cap).toBe(true);
    await meterSynthetic(t.db, { accountId, issuerId, kind: 'nfce', period: periodOf(new Date()), n: 99, at: new Date() });
    // The 100th of the free plan's 100 goes through.
    expect((await emitSettled(t, auth, sale(issuerId))).note.status).toBe('authorized');
    const notesBefore = await notesOf(issuerId);
    const refused = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: auth, payload: sale(issuerId) });
    expect(refused.statusCode, refused.body).toBe(402);
    expect(refused.json()).toMatchObject({ error: 'quota_exceeded', details: [{ field: 'quota.nfce', message: expect.stringContaining('limit 100 per month') }] });
    expect(refused.json().message).toMatch(/includes 100 NFC-e/);
    // Nothing stored: no note (so no job, no number, nothing sent to the authority).
    expect(await notesOf(issuerId)).toBe(notesBefore);
    // The 100th used the quota up: billing.quota_reached, once, even though the cap keeps it from being passed.
    // (Raised right after the authorization's own statement: waited for, not assumed.)
    const reached = await eventually(async () => {
      const r = await t.db.query<{ data: { used: number } }>(`SELECT data FROM events WHERE account_id = $1 AND type = 'billing.quota_reached'`, [accountId]);
      return r.rows.length > 0 ? r.rows : null;
    }, 20_000, 'billing.quota_reached');
    expect(reached.map((r) => r.data.used)).toEqual([100]);
    // Delivered through the webhook machinery, signed (Standard Webhooks), the only type this endpoint takes.
    const [delivered] = await receiver.waitFor(1);
    expect(delivered!.headers['webhook-signature']).toMatch(/^v1,/);
    expect(JSON.parse(delivered!.body)).toMatchObject({ type: 'billing.quota_reached', data: { object: 'billing_quota', kind: 'nfce', plan: 'free', included: 100, used: 100, hard_cap: true } });
    await receiver.close();
    // Another type within its own quota is still issued.
    const nfe = (await emitNfeSettled(t, auth, invoice(issuerId))).note;
    expect(nfe.status).toBe('authorized');
    // A CC-e is a billable event: with the free plan's 20 used, the cap refuses the 21st before it is signed.
    await meterSynthetic(t.db, { accountId, issuerId, kind: 'events', period: periodOf(new Date()), n: 20, at: new Date() });
    const cce = await t.app.inject({ method: 'POST', url: `/v1/nfe/${nfe.id}/cce`, headers: auth, payload: { correction: 'Endereco de entrega: Rua A, 1, fundos' } });
    expect(cce.statusCode, cce.body).toBe(402);
    expect(cce.json().details).toEqual([{ field: 'quota.events', message: expect.stringContaining('limit 20 per month') }]);
    expect((await t.db.query('SELECT count(*)::int AS n FROM nfe_events WHERE note_id = $1', [nfe.id])).rows[0]).toEqual({ n: 0 });
    // Cap off: the sale is issued and billed as overage.
    await t.app.inject({ method: 'PATCH', url: '/v1/billing/subscription', headers: auth, payload: { hard_cap: false } });
    expect((await emitSettled(t, auth, sale(issuerId))).note.status).toBe('authorized');
    const sub = (await t.app.inject({ method: 'GET', url: '/v1/billing/subscription', headers: auth })).json();
    expect(sub.usage.find((l: { kind: string }) => l.kind === 'nfce')).toMatchObject({ used: 101, overage: 1, overage_cents: 25 });
  }, 90_000);

  it('without a cap nothing is refused past the quota; the sandbox is never capped', async () => {
    const { auth, accountId } = await t.newAccount('Billing sandbox cap');
    const issuerId = await readyIssuer(t, auth);
    await t.app.inject({ method: 'PATCH', url: '/v1/billing/subscription', headers: auth, payload: { hard_cap: true } });
    await meterSynthetic(t.db, { accountId, issuerId, kind: 'nfce', period: periodOf(new Date()), n: 100, at: new Date() });
    expect((await emitSettled(t, auth, sale(issuerId))).note.status).toBe('authorized');
  }, 60_000);

  it('hard_cap must be a boolean: 422 naming the field', async () => {
    const { auth } = await t.newAccount('Billing cap body');
    const r = await t.app.inject({ method: 'PATCH', url: '/v1/billing/subscription', headers: auth, payload: { hard_cap: 'yes' } });
    expect(r.statusCode).toBe(422);
    expect(JSON.stringify(r.json().details)).toContain('hard_cap');
  });
});

describe('who changes billing', () => {
  it('owner and billing change the plan; admin reads only; developer not even that; each change is in the audit log', async () => {
    const owner = await verifiedUser(t.app);
    const billing = await joinTeam(t.app, owner, 'billing');
    const admin = await joinTeam(t.app, owner, 'admin');
    const developer = await joinTeam(t.app, owner, 'developer');
    const post = (who: { session_token: string }, key: string, plan: string) =>
      t.app.inject({ method: 'POST', url: '/v1/billing/upgrade', headers: { ...bearer(who), 'idempotency-key': key }, payload: { plan } });

    expect((await t.app.inject({ method: 'GET', url: '/v1/billing/subscription', headers: bearer(admin) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/v1/billing/subscription', headers: bearer(developer) })).statusCode).toBe(403);
    const denied = await post(admin, 'admin-upgrade-01', 'starter');
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toContain('billing:write');
    expect((await post(billing, 'billing-upgrade-01', 'starter')).statusCode).toBe(200);
    expect((await post(owner, 'owner-upgrade-01', 'pro')).statusCode).toBe(200);
    const cap = await t.app.inject({ method: 'PATCH', url: '/v1/billing/subscription', headers: bearer(billing), payload: { hard_cap: true } });
    expect(cap.statusCode).toBe(200);

    const log = await t.app.inject({ method: 'GET', url: '/v1/audit-log?limit=100', headers: bearer(owner) });
    const entries = log.json().data as { action: string; actor: string; status_code: number }[];
    const actions = entries.filter((e) => e.action.startsWith('billing.')).map((e) => [e.action, e.actor, e.status_code]);
    expect(actions).toEqual(expect.arrayContaining([
      ['billing.upgrade.create', billing.userId, 200],
      ['billing.upgrade.create', owner.session.user_id, 200],
      ['billing.subscription.update', billing.userId, 200],
    ]));
  }, 90_000);
});
