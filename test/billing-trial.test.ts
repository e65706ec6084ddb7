// docs/guides/billing.md "Trial": the first move of a production account to a paid plan starts a trial of
// BILLING_TRIAL_DAYS (14 by default): status trialing, the plan in force at once, its days charged
// nothing, active from its end (job billing.trial-end), the plan charged from then on. A manual clock
// walks through November 2026 (30 days) to January 2027 (31 days), Brasília time; each amount is
// computed by hand in its test's name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closePeriod } from '../src/platform/billing/invoices.js';
import { ManualClock } from './support/clock.js';
import { createTestApp, type TestApp } from './support/app.js';
import { makeProduction } from './support/billing.js';
import { eventually } from './support/webhook-receiver.js';

let t: TestApp;
const clock = new ManualClock('2026-11-06T03:00:00.000Z');
let a: { auth: { authorization: string }; accountId: string };

let keys = 0;
const upgrade = (plan: string, headers: { authorization: string }, preview = false) =>
  t.app.inject({ method: 'POST', url: '/v1/billing/upgrade', headers: { ...headers, ...(preview ? {} : { 'idempotency-key': `trial-key-${++keys}` }) }, payload: { plan, preview } });
const subscription = async (headers: { authorization: string }) => {
  const r = await t.app.inject({ method: 'GET', url: '/v1/billing/subscription', headers });
  expect(r.statusCode, r.body).toBe(200);
  return r.json();
};
const invoices = async (headers: { authorization: string }) =>
  (await t.app.inject({ method: 'GET', url: '/v1/billing/invoices', headers })).json().data as Array<{ period: string; total_cents: number; lines: Array<{ kind: string; amount_cents: number; description: string }> }>;
const storedStatus = async (accountId: string) =>
  (await t.db.query<{ status: string }>('SELECT status FROM billing_subscriptions WHERE account_id = $1', [accountId])).rows[0]?.status;
const meter = (accountId: string, period: string, kind: string, count: number) =>
  t.db.query(`INSERT INTO billing_usage_totals (account_id, period, kind, count) VALUES ($1, $2, $3, $4)`, [accountId, period, kind, count]);

beforeAll(async () => {
  t = await createTestApp({ clock, role: 'all' });
  a = await t.newAccount('Trial A');
  await makeProduction(t.db, a.accountId);
}, 60_000);
afterAll(async () => t.runtime.close());

describe('trial of the first paid plan', () => {
  it('preview free to pro on 6 November: a 14-day trial to the 20th, then 19900 x 11/30 = 7296.67 -> 7297 cents; nothing changes', async () => {
    const r = await upgrade('pro', a.auth, true);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ preview: true, kind: 'upgrade', trial_ends_at: '2026-11-20T03:00:00.000Z', proration: { remaining_ms: 11 * 86_400_000, amount_cents: 7_297 } });
    expect(await subscription(a.auth)).toMatchObject({ plan: { id: 'free' }, status: 'active', trial_ends_at: null });
  });

  it('the upgrade: pro in force at once, status trialing until the 20th, the estimate charges only the days after the trial', async () => {
    const r = await upgrade('pro', a.auth);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ from_plan: 'free', to_plan: 'pro', trial_ends_at: '2026-11-20T03:00:00.000Z', proration: { amount_cents: 7_297 } });
    const s = await subscription(a.auth);
    expect(s).toMatchObject({ plan: { id: 'pro' }, status: 'trialing', trial_ends_at: '2026-11-20T03:00:00.000Z' });
    expect(s.usage.find((l: { kind: string }) => l.kind === 'nfce').included).toBe(10_000);
    expect(s.next_invoice).toMatchObject({ plan_cents: 0, proration_cents: 7_297, estimated_total_cents: 7_297 });
    expect(await storedStatus(a.accountId)).toBe('trialing');
  });

  it('an upgrade during the trial costs from its end too: pro to enterprise on the 10th, 80000 x 11/30 = 29333.33 -> 29333', async () => {
    clock.set('2026-11-10T03:00:00.000Z');
    const r = await upgrade('enterprise', a.auth);
    expect(r.json()).toMatchObject({ trial_ends_at: '2026-11-20T03:00:00.000Z', proration: { amount_cents: 29_333 } });
    expect(await subscription(a.auth)).toMatchObject({ plan: { id: 'enterprise' }, status: 'trialing', next_invoice: { proration_cents: 7_297 + 29_333 } });
  });

  it('at the trial\'s end the job makes the subscription active', async () => {
    clock.set('2026-11-20T03:00:00.000Z');
    // Read before the job ran: already active (the status never outlives the trial).
    expect(await subscription(a.auth)).toMatchObject({ status: 'active', trial_ends_at: null });
    t.runtime.ctx.wakeWorker();
    await eventually(async () => (await storedStatus(a.accountId)) === 'active', 20_000, () => 'billing.trial-end to run');
  });

  it('November\'s invoice: the two prorations from the trial\'s end, overage at enterprise prices, nothing for the trial days', async () => {
    await meter(a.accountId, '2026-11', 'nfce', 100_010);
    clock.set('2026-12-01T03:00:00.000Z');
    await closePeriod({ ...t.ctx, clock }, '2026-11');
    const [inv] = await invoices(a.auth);
    expect(inv!.lines.map((l) => [l.kind, l.amount_cents])).toEqual([['proration', 7_297], ['proration', 29_333], ['overage.nfce', 30]]);
    expect(inv!.total_cents).toBe(36_660);
  });

  it('a later paid plan never starts a second trial', async () => {
    const b = await t.newAccount('Trial B, second paid plan');
    await makeProduction(t.db, b.accountId);
    clock.set('2026-12-16T03:00:00.000Z');
    await t.db.query(
      `INSERT INTO billing_plan_changes (id, account_id, from_plan, to_plan, kind, period, requested_at, effective_at, proration_cents, trial_ends_at)
       VALUES ('pch_trialb_1', $1, 'free', 'starter', 'upgrade', '2026-10', '2026-10-02T03:00:00Z', '2026-10-02T03:00:00Z', 0, '2026-10-16T03:00:00Z'),
              ('pch_trialb_2', $1, 'starter', 'free', 'downgrade', '2026-10', '2026-10-20T03:00:00Z', '2026-11-01T03:00:00Z', 0, NULL)`,
      [b.accountId],
    );
    // Free again since November; starter again on 16 December: 4900 x 16/31 = 2529.03 -> 2529, at once.
    const r = await upgrade('starter', b.auth);
    expect(r.json()).toMatchObject({ trial_ends_at: null, proration: { amount_cents: 2_529 } });
    expect(await subscription(b.auth)).toMatchObject({ status: 'active', trial_ends_at: null });
  });

  it('the sandbox is never billed, so it gets no trial either', async () => {
    const sb = await t.newAccount('Trial sandbox');
    const r = await upgrade('pro', sb.auth);
    expect(r.json()).toMatchObject({ trial_ends_at: null, proration: { billed: false } });
    expect(await subscription(sb.auth)).toMatchObject({ status: 'active', trial_ends_at: null });
  });

  it('a trial across the month: starter on 25 December to 8 January; December has no invoice (1001 NFC-e, no overage), January 4900 x 24/31 = 3793.55 -> 3794', async () => {
    const c = await t.newAccount('Trial C, across the month');
    await makeProduction(t.db, c.accountId);
    clock.set('2026-12-25T03:00:00.000Z');
    const r = await upgrade('starter', c.auth);
    expect(r.json()).toMatchObject({ trial_ends_at: '2027-01-08T03:00:00.000Z', proration: { amount_cents: 0 } });
    await meter(c.accountId, '2026-12', 'nfce', 1_001);
    expect((await subscription(c.auth)).next_invoice).toMatchObject({ estimated_total_cents: 0 });
    clock.set('2027-01-01T03:00:00.000Z');
    await closePeriod({ ...t.ctx, clock }, '2026-12');
    expect(await invoices(c.auth)).toEqual([]);
    expect(await subscription(c.auth)).toMatchObject({ status: 'trialing', next_invoice: { plan_cents: 3_794 } });
    clock.set('2027-02-01T03:00:00.000Z');
    await closePeriod({ ...t.ctx, clock }, '2027-01');
    const [inv] = await invoices(c.auth);
    expect(inv).toMatchObject({ period: '2027-01', total_cents: 3_794 });
    expect(inv!.lines).toEqual([expect.objectContaining({ kind: 'plan', amount_cents: 3_794, description: "Starter plan from the trial's end on 2027-01-08, 2027-01" })]);
  });
});
