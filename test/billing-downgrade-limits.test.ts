// Plan limits escaped through a trial. Upgrading started a trial, 5 issuers were
// made (free allows 1), a downgrade to free left all 5 working and the next invoice was 0. Now a
// downgrade (and its preview) to a plan the account exceeds is 409 plan_limits_exceeded naming what
// to remove; while a downgrade is pending the smaller plan's limits already bind; the trial never
// falls back by itself, so its end charges the plan that holds the issuers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closePeriod } from '../src/platform/billing/invoices.js';
import { createTestApp, type TestApp } from './support/app.js';
import { makeProduction } from './support/billing.js';
import { ManualClock } from './support/clock.js';
import { freshBranchCnpj, SP_ISSUER } from './support/nfce-flow.js';

const clock = new ManualClock('2026-11-06T03:00:00.000Z');
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock, role: 'all' });
}, 60_000);
afterAll(async () => t.runtime.close());

type Auth = { authorization: string };
let keys = 0;
const change = (auth: Auth, plan: string, preview = false) =>
  t.app.inject({ method: 'POST', url: '/v1/billing/upgrade', headers: { ...auth, ...(preview ? {} : { 'idempotency-key': `downgrade-key-${++keys}` }) }, payload: { plan, preview } });
const newIssuer = (auth: Auth) => t.app.inject({ method: 'POST', url: '/v1/issuers', headers: auth, payload: { ...SP_ISSUER, cnpj: freshBranchCnpj() } });
const invite = (auth: Auth, email: string) => t.app.inject({ method: 'POST', url: '/v1/team/invites', headers: auth, payload: { email, role: 'viewer' } });
const subscription = async (auth: Auth) => (await t.app.inject({ method: 'GET', url: '/v1/billing/subscription', headers: auth })).json();
const production = async (name: string) => {
  const a = await t.newAccount(name);
  await makeProduction(t.db, a.accountId);
  return a;
};

describe('limits hold at every change of plan', () => {
  it('the attack: trial of pro, 5 issuers, downgrade to free is refused naming the 4 to remove, and the trial\'s end charges pro', async () => {
    const { auth, accountId } = await production('Trial escape');
    expect((await change(auth, 'pro')).json()).toMatchObject({ to_plan: 'pro', trial_ends_at: '2026-11-20T03:00:00.000Z' });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await newIssuer(auth);
      expect(r.statusCode, r.body).toBe(201);
      ids.push(r.json().id as string);
      clock.advance(1000); // an order among them: the newest are named first
    }
    for (const preview of [true, false]) {
      const refused = await change(auth, 'free', preview);
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().error).toBe('plan_limits_exceeded');
      expect(refused.json().details[0]).toEqual({ field: 'plan.limits.issuers', message: '5 in use, the Free plan allows 1: archive 4 (POST /v1/issuers/:id/archive)' });
      const named = (refused.json().details as { field: string; message: string }[]).filter((d) => d.field === 'issuers').map((d) => d.message.split(' ')[0]);
      expect(named.sort()).toEqual(ids.slice(1).sort()); // the newest four; the first one fits
    }
    const starter = (await change(auth, 'starter')).json();
    expect(starter.error).toBe('plan_limits_exceeded');
    expect(starter.details[0]).toEqual({ field: 'plan.limits.issuers', message: '5 in use, the Starter plan allows 3: archive 2 (POST /v1/issuers/:id/archive)' });
    expect(starter.details).toHaveLength(3);
    const s = await subscription(auth);
    expect(s).toMatchObject({ plan: { id: 'pro' }, pending_change: null });
    expect(s.next_invoice.estimated_total_cents).toBe(7_297); // pro from the trial's end: 19900 x 11/30

    // The trial ends without a downgrade: November's invoice charges pro from the 20th, never 0.
    clock.set('2026-12-01T03:00:00.000Z');
    await closePeriod({ ...t.ctx, clock }, '2026-11');
    const inv = (await t.db.query<{ total_cents: number }>("SELECT total_cents FROM billing_invoices WHERE account_id = $1 AND period = '2026-11'", [accountId])).rows[0];
    expect(inv?.total_cents).toBe(7_297);
  });

  it('while a downgrade is pending, the smaller plan\'s limits bind already', async () => {
    clock.set('2026-12-02T03:00:00.000Z');
    const { auth } = await production('Pending');
    expect((await change(auth, 'starter')).statusCode).toBe(200);
    expect((await newIssuer(auth)).statusCode).toBe(201);
    const down = await change(auth, 'free');
    expect(down.statusCode, down.body).toBe(200);
    expect(down.json()).toMatchObject({ kind: 'downgrade', effective_at: '2027-01-01T03:00:00.000Z' });
    const more = await newIssuer(auth);
    expect(more.statusCode).toBe(402);
    expect(more.json()).toMatchObject({ error: 'plan_limit_reached', message: expect.stringContaining('Free plan allows 1 issuer (the downgrade to it'), details: [{ message: '1 of 1 in use on the Free plan' }] });
    // Choosing starter again drops the pending downgrade, and starter's limit is back.
    expect((await change(auth, 'starter')).statusCode).toBe(200);
    expect((await newIssuer(auth)).statusCode).toBe(201);
  });

  it('members and pending invites past the smaller plan are named; once removed, the downgrade passes', async () => {
    const { auth } = await production('Team');
    expect((await change(auth, 'starter')).statusCode).toBe(200);
    const sent = [];
    for (const who of ['ana', 'bia', 'caio']) {
      sent.push((await invite(auth, `${who}.${Date.now()}@example.com`)).json());
      clock.advance(1000);
    }
    const refused = await change(auth, 'free');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: 'plan_limits_exceeded', details: [{ field: 'plan.limits.team_members', message: '3 in use (invites pending included), the Free plan allows 2: remove 1' }, { field: 'invites' }] });
    expect(refused.json().details[1].message).toContain(sent[2].id);
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/team/invites/${sent[2].id as string}`, headers: auth })).statusCode).toBe(204);
    expect((await change(auth, 'free')).statusCode).toBe(200);
  });
});
