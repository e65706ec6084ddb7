// Every authorized document counted once, in the statement that authorizes it;
// retries and replayed settlements never count twice; usage by type and by issuer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { periodOf } from '../src/platform/billing/period.js';
import { settleNote } from '../src/documents/notes/storage/note-settlement.js';
import type { TestApp } from './support/app.js';
import { createTestApp } from './support/app.js';
import { emitSettled, readyIssuer, sale } from './support/nfce-flow.js';
import { emitNfeSettled, invoice } from './support/nfe-flow.js';
import { issueNfseSettled, nfseIssuer, serviceInvoice } from './support/nfse-flow.js';
import { eventually } from './support/webhook-receiver.js';
import { makeProduction, meterSynthetic } from './support/billing.js';

let t: TestApp;
let auth: { authorization: string };
let issuerId: string;
const period = () => periodOf(new Date());

const usage = async () => {
  const r = await t.app.inject({ method: 'GET', url: `/v1/billing/usage?period=${period()}`, headers: auth });
  expect(r.statusCode, r.body).toBe(200);
  return r.json();
};
const authorizedCount = async (kind: 'nfce' | 'nfe' | 'nfse') => {
  const r = await t.app.inject({ method: 'GET', url: `/v1/${kind}?status=authorized&limit=100`, headers: auth });
  return (r.json().data as unknown[]).length;
};

beforeAll(async () => {
  t = await createTestApp({ role: 'all' });
  ({ auth } = await t.newAccount('Billing metering'));
  issuerId = await readyIssuer(t, auth);
}, 60_000);
afterAll(async () => {
  await t.runtime.close();
});

describe('metering', () => {
  it('counts each authorized NFC-e, NF-e, NFS-e and registered CC-e once; a rejected note not at all', async () => {
    for (let i = 0; i < 2; i++) expect((await emitSettled(t, auth, sale(issuerId))).note.status).toBe('authorized');
    expect((await emitSettled(t, auth, sale(issuerId), { 'x-sandbox-scenario': 'reject:778' })).note.status).toBe('rejected');
    const nfe = (await emitNfeSettled(t, auth, invoice(issuerId))).note;
    expect(nfe.status).toBe('authorized');
    const cce = await t.app.inject({ method: 'POST', url: `/v1/nfe/${nfe.id}/cce`, headers: auth, payload: { correction: 'Endereco de entrega: Rua A, 1, fundos' } });
    expect([200, 202], cce.body).toContain(cce.statusCode);
    await eventually(async () => ((await t.app.inject({ method: 'GET', url: `/v1/nfe/${nfe.id}`, headers: auth })).json().correction?.sequence === 1 ? true : null), 20_000, 'CC-e registered');
    const nfseIssuerId = await nfseIssuer(t, auth);
    expect((await issueNfseSettled(t, auth, serviceInvoice(nfseIssuerId))).note.status).toBe('authorized');

    const u = await usage();
    expect(u.totals).toEqual({ nfce: 2, nfe: 1, nfse: 1, events: 1 });
    expect(u.totals.nfce).toBe(await authorizedCount('nfce'));
    expect(u.totals.nfe).toBe(await authorizedCount('nfe'));
    expect(u.totals.nfse).toBe(await authorizedCount('nfse'));
    expect(u.by_issuer).toEqual(expect.arrayContaining([
      { issuer_id: issuerId, nfce: 2, nfe: 1, nfse: 0, events: 1 },
      { issuer_id: nfseIssuerId, nfce: 0, nfe: 0, nfse: 1, events: 0 },
    ]));
  }, 120_000);

  it('a lost answer, the job retried and the consultation finding it authorized: counted once', async () => {
    const before = (await usage()).totals.nfce;
    // The answer is lost and the consultation right after fails too: the job's next attempt consults again.
    t.simulator.setScenario('lost-response', { times: 1, service: 'autorizacao' });
    t.simulator.setScenario('unavailable', { times: 1, service: 'consultaProtocolo' });
    const res = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: auth, payload: sale(issuerId) });
    expect(res.statusCode).toBe(202);
    const id = res.json().id as string;
    const note = await eventually(async () => {
      const n = (await t.app.inject({ method: 'GET', url: `/v1/nfce/${id}`, headers: auth })).json();
      return n.status === 'authorized' ? n : null;
    }, 30_000, 'the retried note to be authorized');
    const history = (await t.app.inject({ method: 'GET', url: `/v1/nfce/${note.id}/events`, headers: auth })).json().data as { type: string }[];
    expect(history.map((h) => h.type)).toEqual(expect.arrayContaining(['authority_in_doubt', 'consulted', 'authorized']));
    expect((await usage()).totals.nfce).toBe(before + 1);
    expect((await usage()).totals.nfce).toBe(await authorizedCount('nfce'));
  }, 60_000);

  it('a settlement replayed after the fact (the note set back, settled again) writes no second usage row', async () => {
    const { note } = await emitSettled(t, auth, sale(issuerId));
    const before = (await usage()).totals.nfce;
    await t.db.query(`UPDATE notes SET status = 'processing' WHERE id = $1`, [note.id]);
    const now = new Date();
    const again = await settleNote(t.db, {
      noteId: note.id, from: 'processing', fields: { status: 'authorized' }, history: [{ type: 'authorized', at: now, message: 'replayed' }],
      releaseNumber: false, event: { type: 'nfce.authorized', data: {} }, now, meterPeriod: periodOf(now),
    });
    expect(again.changed).toBe(true);
    expect(again.metered).toBeNull();
    expect((await usage()).totals.nfce).toBe(before);
    const rows = await t.db.query(`SELECT count(*)::int AS n FROM billing_usage WHERE subject_id = $1`, [note.id]);
    expect(rows.rows[0]).toEqual({ n: 1 });
  }, 60_000);

  it('billing.quota_reached once per period and type, when the plan\'s included documents are passed (production account)', async () => {
    const prod = await t.newAccount('Billing quota');
    await makeProduction(t.db, prod.accountId);
    const prodIssuer = await readyIssuer(t, prod.auth);
    // The free plan includes 100 NFC-e: 100 metered as the authorization would, then two real sales.
    await meterSynthetic(t.db, { accountId: prod.accountId, issuerId: prodIssuer, kind: 'nfce', period: period(), n: 100, at: new Date() });
    for (let i = 0; i < 2; i++) expect((await emitSettled(t, prod.auth, sale(prodIssuer))).note.status).toBe('authorized');
    // Raised right after each authorization's own statement: waited for, then exactly one.
    const events = await eventually(async () => {
      const r = await t.db.query<{ data: { used: number; included: number; kind: string } }>(
        `SELECT data FROM events WHERE account_id = $1 AND type = 'billing.quota_reached'`, [prod.accountId]);
      return r.rows.length > 0 ? r.rows : null;
    }, 20_000, 'billing.quota_reached');
    expect(events.map((r) => r.data)).toEqual([expect.objectContaining({ kind: 'nfce', included: 100, used: 101 })]);
    const sub = (await t.app.inject({ method: 'GET', url: '/v1/billing/subscription', headers: prod.auth })).json();
    const nfce = sub.usage.find((l: { kind: string }) => l.kind === 'nfce');
    expect(nfce).toEqual({ kind: 'nfce', included: 100, used: 102, overage: 2, overage_unit_cents: 25, overage_cents: 50 });
    expect(sub.next_invoice).toMatchObject({ plan_cents: 0, proration_cents: 0, overage_cents: 50, estimated_total_cents: 50 });
  }, 60_000);

  it('the usage of a period that is not YYYY-MM is a 422 naming the field', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/v1/billing/usage?period=2026-13', headers: auth });
    expect(r.statusCode).toBe(422);
    expect(r.json().details).toEqual([{ field: 'period', message: expect.any(String) }]);
  });
});
