// Payments through Asaas, against a TEST DOUBLE of Asaas (test/support/asaas-double.ts,
// the request and webhook shapes Asaas documents). An invoice is charged once however often its job
// runs; Asaas's webhooks are verified by their token and applied once per event id; an overdue
// payment makes the account past_due (notification, e-mail) without ever blocking a sale.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargeInvoice } from '../src/platform/billing/charge-invoice.js';
import { closePeriod } from '../src/platform/billing/invoices.js';
import { LOG_REDACT } from '../src/app.js';
import type { TestApp } from './support/app.js';
import { createTestApp } from './support/app.js';
import { startAsaasDouble, type AsaasDouble } from './support/asaas-double.js';
import { makeProduction } from './support/billing.js';
import { ManualClock } from './support/clock.js';
import { readyIssuer, sale } from './support/nfce-flow.js';
import { logCapture } from './support/security-world.js';

const WEBHOOK_TOKEN = `whtok_${Math.random().toString(36).slice(2)}_billing_test`;
const clock = new ManualClock('2026-11-06T03:00:00.000Z');
const log = logCapture();
let t: TestApp;
let asaas: AsaasDouble;
let auth: { authorization: string };
let accountId: string;
let issuerId: string;
let invoiceId: string;

const hook = (payload: object, token: string | null = WEBHOOK_TOKEN) =>
  t.app.inject({ method: 'POST', url: '/v1/billing/webhooks/asaas', headers: token === null ? {} : { 'asaas-access-token': token }, payload });
const subscription = async () => (await t.app.inject({ method: 'GET', url: '/v1/billing/subscription', headers: auth })).json();
const eventsOf = async (type: string) =>
  (await t.db.query<{ subject_id: string; data: Record<string, unknown> }>('SELECT subject_id, data FROM events WHERE account_id = $1 AND type = $2', [accountId, type])).rows;

beforeAll(async () => {
  asaas = await startAsaasDouble();
  t = await createTestApp({
    clock,
    // No trial (test/billing-trial.test.ts has it): the invoice here charges the upgrade's proration.
    env: { ASAAS_API_URL: asaas.url, ASAAS_API_KEY: asaas.apiKey, ASAAS_WEBHOOK_TOKEN: WEBHOOK_TOKEN, BILLING_TRIAL_DAYS: '0' },
    options: { logger: { level: 'warn', redact: { paths: LOG_REDACT, censor: '[redacted]' }, stream: log.stream } },
  });
  ({ auth, accountId } = await t.newAccount('Billing payments'));
  await makeProduction(t.db, accountId);
  issuerId = await readyIssuer(t, auth);
  const up = await t.app.inject({ method: 'POST', url: '/v1/billing/upgrade', headers: { ...auth, 'idempotency-key': 'payments-upgrade-1' }, payload: { plan: 'starter' } });
  expect(up.json().proration.amount_cents).toBe(4_083);
  clock.set('2026-12-01T03:00:00.000Z');
  await closePeriod({ ...t.ctx, clock }, '2026-11');
  invoiceId = (await t.app.inject({ method: 'GET', url: '/v1/billing/invoices', headers: auth })).json().data[0].id;
}, 60_000);
afterAll(async () => {
  await t.runtime.close();
  await asaas.close();
});

describe('charging an invoice', () => {
  it('the close queues the charge with the invoice; the job makes one customer and one charge however often it runs', async () => {
    const job = await t.db.query(`SELECT state FROM jobs WHERE kind = 'billing.charge-invoice' AND payload->>'invoiceId' = $1`, [invoiceId]);
    expect(job.rows).toHaveLength(1);
    const deps = { ...t.ctx, clock };
    await Promise.all([chargeInvoice(deps, invoiceId), chargeInvoice(deps, invoiceId)].map((p) => p.catch(() => undefined)));
    await chargeInvoice(deps, invoiceId);
    const mine = asaas.payments.filter((p) => p.externalReference === invoiceId);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ billingType: 'UNDEFINED', value: 40.83, dueDate: '2026-12-11', status: 'PENDING' });
    expect(asaas.customers.filter((c) => c.externalReference === accountId)).toHaveLength(1);
    expect(asaas.customers.find((c) => c.externalReference === accountId)).toMatchObject({ name: 'Billing payments', cpfCnpj: expect.stringMatching(/^\d{14}$/) });
    expect(asaas.calls.every((c) => c.token === asaas.apiKey)).toBe(true);
    const invoice = (await t.app.inject({ method: 'GET', url: `/v1/billing/invoices/${invoiceId}`, headers: auth })).json();
    expect(invoice.payment_url).toBe(mine[0]!.invoiceUrl);
  });
});

describe('Asaas webhooks', () => {
  it('a wrong or missing asaas-access-token is refused 401 and logged, never the token itself', async () => {
    const payment = asaas.payments.find((p) => p.externalReference === invoiceId)!;
    const wrong = await hook(asaas.event('PAYMENT_RECEIVED', String(payment.id)), 'not-the-token-at-all');
    expect(wrong.statusCode, wrong.body).toBe(401);
    expect(wrong.json().error).toBe('unauthorized');
    expect((await hook(asaas.event('PAYMENT_RECEIVED', String(payment.id)), null)).statusCode).toBe(401);
    expect(log.text()).toContain('Asaas webhook refused');
    expect(log.text()).not.toContain('not-the-token-at-all');
    expect((await t.app.inject({ method: 'GET', url: `/v1/billing/invoices/${invoiceId}`, headers: auth })).json().status).toBe('open');
  });

  it('PAYMENT_OVERDUE: past_due, billing.payment_failed, a notification and an e-mail; the same event again changes nothing; sales go on', async () => {
    clock.set('2026-12-12T12:00:00.000Z');
    const payment = asaas.payments.find((p) => p.externalReference === invoiceId)!;
    const overdue = asaas.event('PAYMENT_OVERDUE', String(payment.id));
    const first = await hook(overdue);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ received: true, applied: true, invoice_id: invoiceId });
    const again = await hook(overdue);
    expect(again.json()).toEqual({ received: true, applied: false, invoice_id: null });
    const s = await subscription();
    expect(s).toMatchObject({ status: 'past_due', past_due_since: '2026-12-12T12:00:00.000Z', grace_ends_at: '2026-12-27T12:00:00.000Z' });
    expect((await eventsOf('billing.payment_failed')).map((e) => [e.subject_id, e.data.reason])).toEqual([[invoiceId, 'overdue']]);
    const notes = await t.db.query(`SELECT title FROM notifications WHERE account_id = $1 AND type = 'billing.payment_failed'`, [accountId]);
    expect(notes.rows).toEqual([{ title: 'Invoice 2026-11 is overdue (R$ 40,83)' }]);
    const mails = await t.db.query(`SELECT subject FROM mail_messages WHERE account_id = $1 AND subject LIKE 'Invoice 2026-11%'`, [accountId]);
    expect(mails.rows).toHaveLength(1);
    // A sale is never blocked by an unpaid invoice.
    const res = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: auth, payload: sale(issuerId) });
    expect(res.statusCode, res.body).toBe(202);
  });

  it('past the grace period a dearer plan waits for the payment (409); a cheaper one does not', async () => {
    const preview = (plan: string) => t.app.inject({ method: 'POST', url: '/v1/billing/upgrade', headers: auth, payload: { plan, preview: true } });
    expect((await preview('pro')).statusCode).toBe(200);
    clock.set('2026-12-27T12:00:00.000Z');
    const blocked = await preview('pro');
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json().message).toMatch(/overdue since 2026-12-12/);
    expect((await preview('free')).statusCode).toBe(200);
  });

  it('PAYMENT_RECEIVED: the invoice paid, the account active again, billing.payment_succeeded once', async () => {
    const payment = asaas.payments.find((p) => p.externalReference === invoiceId)!;
    const received = asaas.event('PAYMENT_RECEIVED', String(payment.id));
    expect((await hook(received)).json()).toMatchObject({ applied: true, invoice_id: invoiceId });
    expect((await hook(received)).json()).toMatchObject({ applied: false });
    expect((await hook(asaas.event('PAYMENT_CONFIRMED', String(payment.id)))).json()).toMatchObject({ applied: false });
    const invoice = (await t.app.inject({ method: 'GET', url: `/v1/billing/invoices/${invoiceId}`, headers: auth })).json();
    expect(invoice).toMatchObject({ status: 'paid', paid_at: '2026-12-27T12:00:00.000Z' });
    expect(await subscription()).toMatchObject({ status: 'active', past_due_since: null, grace_ends_at: null });
    expect((await eventsOf('billing.payment_succeeded')).map((e) => e.subject_id)).toEqual([invoiceId]);
  });

  it('an event for a payment the gateway does not know is acknowledged (200) and changes nothing', async () => {
    const r = await hook(asaas.event('PAYMENT_RECEIVED', 'pay_unknown000'));
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ received: true, applied: false, invoice_id: null });
    const bad = await hook({ event: 'PAYMENT_RECEIVED' });
    expect(bad.statusCode).toBe(422);
  });
});
