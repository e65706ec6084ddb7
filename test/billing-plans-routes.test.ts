// Plan changes (preview, upgrade at once and prorated, downgrade at the period end),
// the monthly invoice job (idempotent per account + period), invoices and their PDF, the sandbox
// never billed. A manual clock walks through November 2026 (30 days, Brasília time).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closePeriod } from '../src/platform/billing/invoices.js';
import { ManualClock } from './support/clock.js';
import type { TestApp } from './support/app.js';
import { createTestApp } from './support/app.js';
import { makeProduction } from './support/billing.js';
import { pdfWorkspace } from './support/pdf-tools.js';
import { bearer, PASSWORD, verifiedUser } from './support/people.js';

let t: TestApp;
const clock = new ManualClock('2026-11-06T03:00:00.000Z');
let auth: { authorization: string };
let accountId: string;
const pdf = pdfWorkspace('billing-');

const upgrade = (body: object, key?: string, headers = auth) =>
  t.app.inject({ method: 'POST', url: '/v1/billing/upgrade', headers: { ...headers, ...(key ? { 'idempotency-key': key } : {}) }, payload: body });
const subscription = async (headers = auth) => {
  const r = await t.app.inject({ method: 'GET', url: '/v1/billing/subscription', headers });
  expect(r.statusCode, r.body).toBe(200);
  return r.json();
};

beforeAll(async () => {
  // No trial (test/billing-trial.test.ts has it): these cases are the proration math by hand.
  t = await createTestApp({ clock, env: { BILLING_TRIAL_DAYS: '0' } });
  ({ auth, accountId } = await t.newAccount('Billing plans'));
  await makeProduction(t.db, accountId);
}, 60_000);
afterAll(async () => {
  pdf.cleanup();
  await t.runtime.close();
});

describe('plan changes', () => {
  it('a new production account is on the free plan, active, with nothing to pay yet', async () => {
    const s = await subscription();
    expect(s).toMatchObject({ plan: { id: 'free' }, status: 'active', sandbox: false, hard_cap: false, current_period: { id: '2026-11', start: '2026-11-01T03:00:00.000Z', end: '2026-12-01T03:00:00.000Z' }, pending_change: null });
    expect(s.next_invoice).toMatchObject({ estimated_total_cents: 0 });
  });

  it('a plan change needs an Idempotency-Key (a preview does not); an unknown plan is a 422 naming the field', async () => {
    const none = await upgrade({ plan: 'starter' });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ error: 'idempotency_key_invalid', details: [{ field: 'header.Idempotency-Key' }] });
    const bad = await upgrade({ plan: 'gold' }, 'key-unknown-plan');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().details).toEqual([{ field: 'plan', message: 'unknown plan' }]);
  });

  it('free to starter on 6 November (25 of 30 days left): 4900 x 25/30 = 4083.33 -> 4083 cents; replayed by its key, made once', async () => {
    const first = await upgrade({ plan: 'starter' }, 'upgrade-starter-0001');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ preview: false, from_plan: 'free', to_plan: 'starter', kind: 'upgrade', effective_at: '2026-11-06T03:00:00.000Z', proration: { amount_cents: 4_083, billed: true } });
    const again = await upgrade({ plan: 'starter' }, 'upgrade-starter-0001');
    expect(again.headers['idempotency-replay']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const changes = await t.db.query('SELECT count(*)::int AS n FROM billing_plan_changes WHERE account_id = $1', [accountId]);
    expect(changes.rows[0]).toEqual({ n: 1 });
    expect((await subscription()).plan.id).toBe('starter');
  });

  it('preview starter to pro on 16 November: R$ 150 x 15/30 = 7500 cents, and nothing changes', async () => {
    clock.set('2026-11-16T03:00:00.000Z');
    const preview = await upgrade({ plan: 'pro', preview: true });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({ id: null, preview: true, from_plan: 'starter', to_plan: 'pro', proration: { price_difference_cents: 15_000, fraction: 0.5, amount_cents: 7_500 } });
    expect((await subscription()).plan.id).toBe('starter');
  });

  it('the upgrade itself: pro at once, both prorations on the next invoice estimate', async () => {
    const r = await upgrade({ plan: 'pro' }, 'upgrade-pro-00001');
    expect(r.json()).toMatchObject({ kind: 'upgrade', proration: { amount_cents: 7_500 } });
    const s = await subscription();
    expect(s.plan.id).toBe('pro');
    expect(s.usage.find((l: { kind: string }) => l.kind === 'nfce').included).toBe(10_000);
    expect(s.next_invoice).toMatchObject({ plan_cents: 0, proration_cents: 4_083 + 7_500 });
  });

  it('a downgrade waits for the period end, refunds nothing; the plan in force stays pro until then', async () => {
    clock.set('2026-11-20T12:00:00.000Z');
    const r = await upgrade({ plan: 'starter' }, 'downgrade-starter-1');
    expect(r.json()).toMatchObject({ kind: 'downgrade', effective_at: '2026-12-01T03:00:00.000Z', proration: { amount_cents: 0 } });
    const s = await subscription();
    expect(s.plan.id).toBe('pro');
    expect(s.pending_change).toEqual({ to_plan: 'starter', effective_at: '2026-12-01T03:00:00.000Z' });
  });

  it('the monthly job at the close: one invoice per account and period however often it runs', async () => {
    // 2003 NFS-e authorized in November: 3 past pro's 2000, at R$ 0,12 each.
    await t.db.query(`INSERT INTO billing_usage_totals (account_id, period, kind, count) VALUES ($1, '2026-11', 'nfse', 2003)`, [accountId]);
    clock.set('2026-12-01T03:00:00.000Z');
    const deps = { ...t.ctx, clock };
    await Promise.all([closePeriod(deps, '2026-11'), closePeriod(deps, '2026-11')]);
    await closePeriod(deps, '2026-11');
    const list = await t.app.inject({ method: 'GET', url: '/v1/billing/invoices', headers: auth });
    expect(list.statusCode).toBe(200);
    const invoices = list.json().data;
    expect(invoices).toHaveLength(1);
    const inv = invoices[0];
    expect(inv).toMatchObject({ period: '2026-11', plan: 'pro', status: 'open', currency: 'BRL', total_cents: 4_083 + 7_500 + 36, due_at: '2026-12-11T03:00:00.000Z' });
    expect(inv.lines.map((l: { kind: string; amount_cents: number }) => [l.kind, l.amount_cents])).toEqual([['proration', 4_083], ['proration', 7_500], ['overage.nfse', 36]]);
    const events = await t.db.query(`SELECT subject_id FROM events WHERE account_id = $1 AND type = 'billing.invoice_created'`, [accountId]);
    expect(events.rows).toEqual([{ subject_id: inv.id }]);
    // The downgrade is in force in December.
    expect((await subscription()).plan.id).toBe('starter');
  });

  it('the invoice PDF shows the lines and the total (pdftotext)', async () => {
    const inv = (await t.app.inject({ method: 'GET', url: '/v1/billing/invoices', headers: auth })).json().data[0];
    const r = await t.app.inject({ method: 'GET', url: `/v1/billing/invoices/${inv.id}/pdf`, headers: auth });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('application/pdf');
    const text = await pdf.pdfText(r.rawPayload);
    expect(text).toContain(`Invoice ${inv.id}`);
    expect(text).toContain('Period: 2026-11');
    expect(text).toContain('Upgrade Free to Starter');
    expect(text).toContain('Upgrade Starter to Pro');
    expect(text).toMatch(/NFS-e past the 2000 included \(2003 used\)/);
    expect(text).toContain('R$ 75,00');
    expect(text).toContain('Total: R$ 116,19');
    const other = await t.newAccount('Someone else');
    expect((await t.app.inject({ method: 'GET', url: `/v1/billing/invoices/${inv.id}/pdf`, headers: other.auth })).statusCode).toBe(404);
  });

  it('the sandbox is never billed: sandbox: true, no estimate, and the job makes it no invoice', async () => {
    const sb = await t.newAccount('Sandbox billing');
    await t.db.query(`INSERT INTO billing_usage_totals (account_id, period, kind, count) VALUES ($1, '2026-12', 'nfce', 500)`, [sb.accountId]);
    const s = await subscription(sb.auth);
    expect(s).toMatchObject({ sandbox: true, plan: { id: 'free' }, next_invoice: null, overage_cents: 0 });
    clock.set('2027-01-01T03:00:00.000Z');
    await closePeriod({ ...t.ctx, clock }, '2026-12');
    expect((await t.app.inject({ method: 'GET', url: '/v1/billing/invoices', headers: sb.auth })).json().data).toEqual([]);
  });

  it('from a dashboard session a plan change or a cap needs a recent sign-in (step-up); a webhook may subscribe to billing events', async () => {
    const owner = await verifiedUser(t.app);
    clock.advance(11 * 60_000);
    const stale = await upgrade({ plan: 'starter' }, 'stepup-upgrade-01', bearer(owner));
    expect(stale.statusCode).toBe(403);
    expect(stale.json().error).toBe('reauthentication_required');
    const cap = await t.app.inject({ method: 'PATCH', url: '/v1/billing/subscription', headers: bearer(owner), payload: { hard_cap: true } });
    expect(cap.json().error).toBe('reauthentication_required');
    expect((await t.app.inject({ method: 'POST', url: '/v1/auth/reauthenticate', headers: bearer(owner), payload: { password: PASSWORD } })).statusCode).toBe(200);
    expect((await upgrade({ plan: 'starter' }, 'stepup-upgrade-02', bearer(owner))).statusCode).toBe(200);
    const hook = await t.app.inject({
      method: 'POST', url: '/v1/webhooks', headers: auth,
      payload: { url: 'https://billing.example.com/hooks', event_types: ['billing.invoice_created', 'billing.payment_succeeded', 'billing.payment_failed', 'billing.quota_reached'] },
    });
    expect(hook.statusCode, hook.body).toBe(201);
  });
});
