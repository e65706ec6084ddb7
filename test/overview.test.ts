import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { ManualClock } from './support/clock.js';
import { emitSettled, emittingApp, readyIssuer, sale } from './support/nfce-flow.js';
import { localWindow } from '../src/platform/overview/local-day.js';

// GET /v1/overview on a clock the test sets: notes issued ten minutes either side of a
// midnight in São Paulo count on their own day, another account's notes never count, and each
// section follows the caller's scopes. Runs on PGlite, or PostgreSQL with TEST_DATABASE_URL.

const MIN = 60_000;
const clock = new ManualClock(new Date());
// The next midnight in São Paulo after the real time: the simulated authority judges dhEmi by the
// real clock and refuses a sale older than 5 minutes, so the sales are issued around a coming midnight,
// one at least a quarter of an hour away so that `before` is still ahead of the real time.
const midnight = localWindow(new Date(Date.now() + 15 * MIN)).end;
const before = new Date(midnight.getTime() - 10 * MIN);
const after = new Date(midnight.getTime() + 10 * MIN);
const sameMonth = localWindow(before).month === localWindow(after).month;

let t: TestApp;
let auth: { authorization: string };
let accountId: string;
let issuerId: string;
let other: { authorization: string };
let beforeAuthorized: string;

async function emit(a: { authorization: string }, issuer: string, scenario?: string): Promise<{ id: string; status: string }> {
  const { note } = await emitSettled(t, a, sale(issuer), scenario ? { 'x-sandbox-scenario': scenario } : {});
  return note;
}

async function overview(headers = auth) {
  const res = await t.app.inject({ method: 'GET', url: '/v1/overview', headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const counts = (lines: { type: string; status: string; count: number }[]) => Object.fromEntries(lines.map((l) => [`${l.type}:${l.status}`, l.count]));

beforeAll(async () => {
  ({ t, auth, issuerId } = await emittingApp({ clock }));
  // The authority receives the notes on the gateway's clock, set up to 25 minutes ahead (MOC B09-10, 703).
  t.simulator.setClock(() => clock.now());
  accountId = (await t.app.inject({ method: 'GET', url: '/v1/account', headers: auth })).json().id;
  const b = await t.newAccount('Another shop');
  other = b.auth;
  const otherIssuer = await readyIssuer(t, other);

  clock.set(before);
  const first = await emit(auth, issuerId);
  expect(first.status).toBe('authorized');
  beforeAuthorized = first.id;
  expect((await emit(auth, issuerId, 'reject:778')).status).toBe('rejected');
  expect((await emit(other, otherIssuer, 'reject:225')).status).toBe('rejected');
  expect((await emit(other, otherIssuer)).status).toBe('authorized');

  clock.set(after);
  const authorized = [await emit(auth, issuerId), await emit(auth, issuerId)];
  for (const n of authorized) expect(n.status).toBe('authorized');
  for (const scenario of ['reject:778', 'reject:778', 'reject:539']) expect((await emit(auth, issuerId, scenario)).status).toBe('rejected');
  // The authority answered at once on the frozen clock; give today's two notes known latencies.
  await t.db.query(`UPDATE notes SET authorized_at = created_at + ($2::int * interval '1 millisecond') WHERE id = $1`, [authorized[0]!.id, 1000]);
  await t.db.query(`UPDATE notes SET authorized_at = created_at + ($2::int * interval '1 millisecond') WHERE id = $1`, [authorized[1]!.id, 3000]);
}, 120_000);
afterAll(async () => {
  // The simulator is the worker's: the next file finds it on real time.
  t.simulator.setClock(() => new Date());
  await t.runtime.close();
});

describe('GET /v1/overview', () => {
  it("counts today's notes in São Paulo's calendar and this month's, latency and the top rejection causes", async () => {
    clock.set(new Date(after.getTime() + MIN));
    const o = await overview();
    expect(o).toMatchObject({ object: 'overview', time_zone: 'America/Sao_Paulo', today: { start: midnight.toISOString() } });
    expect(counts(o.documents.today)).toEqual({ 'nfce:authorized': 2, 'nfce:rejected': 3 });
    expect(counts(o.documents.month)).toEqual(sameMonth ? { 'nfce:authorized': 3, 'nfce:rejected': 4 } : { 'nfce:authorized': 2, 'nfce:rejected': 3 });
    expect(o.latency).toEqual({ count: 2, p50_ms: 2000, p95_ms: 2900 });
    expect(o.rejections.month_total).toBe(sameMonth ? 4 : 3);
    expect(o.rejections.top[0]).toMatchObject({ code: '778', count: sameMonth ? 3 : 2, types: ['nfce'], message: expect.any(String) });
    expect(o.rejections.top.map((c: { code: string }) => c.code)).toEqual(['778', '539']);
    expect(o.usage.lines.find((l: { kind: string }) => l.kind === 'nfce')).toMatchObject({ used: sameMonth ? 3 : 2 });
    expect(o.contingency).toEqual({ outstanding: 0, notes: [], has_more: false });
  });

  it('the day before midnight holds only its own notes', async () => {
    clock.set(new Date(before.getTime() + MIN));
    const o = await overview();
    expect(counts(o.documents.today)).toEqual({ 'nfce:authorized': 1, 'nfce:rejected': 1 });
    // The authority's receipt time has whole seconds: within the second of creation it reads earlier.
    await t.db.query(`UPDATE notes SET authorized_at = created_at - interval '400 milliseconds' WHERE id = $1`, [beforeAuthorized]);
    expect((await overview()).latency).toEqual({ count: 1, p50_ms: 0, p95_ms: 0 });
    expect(o.rejections.top).toEqual([expect.objectContaining({ code: '778', count: 1 })]);
  });

  it("another account's notes never count", async () => {
    clock.set(new Date(after.getTime() + MIN));
    const o = await overview(other);
    expect(counts(o.documents.today)).toEqual({});
    expect(counts(o.documents.month)).toEqual(sameMonth ? { 'nfce:authorized': 1, 'nfce:rejected': 1 } : {});
    expect(o.rejections.top.map((c: { code: string }) => c.code)).toEqual(sameMonth ? ['225'] : []);
    expect(o.latency).toEqual({ count: 0, p50_ms: null, p95_ms: null });
  });

  it('lists certificates expiring within 30 days and the notes waiting in contingency, nearest deadline first', async () => {
    const now = new Date(after.getTime() + MIN);
    clock.set(now);
    await t.db.query('UPDATE issuer_certificates SET not_after = $2 WHERE issuer_id = $1', [issuerId, new Date(now.getTime() + 10 * 86_400_000 + MIN)]);
    // Two of today's rejected notes stand in for sales waiting in offline contingency (the autopilot's
    // own path is nfce-contingency.test.ts's); what the overview reads is the status and the deadline.
    const rejected = await t.db.query<{ id: string }>(`SELECT id FROM notes WHERE account_id = $1 AND status = 'rejected' AND created_at >= $2 ORDER BY id LIMIT 2`, [accountId, midnight]);
    const deadlines = [new Date(now.getTime() + 20 * 3_600_000), new Date(now.getTime() + 2 * 3_600_000)];
    for (const [i, row] of rejected.rows.entries()) {
      await t.db.query(
        `UPDATE notes SET status = 'contingency', number = 900000 + $4::int, contingency = jsonb_build_object('entered_at', $2::text, 'deadline_at', $3::text) WHERE id = $1`,
        [row.id, now.toISOString(), deadlines[i]!.toISOString(), i],
      );
    }
    const o = await overview();
    expect(o.certificates).toEqual([expect.objectContaining({ issuer_id: issuerId, expired: false, days_left: 10 })]);
    expect(o.contingency.outstanding).toBe(2);
    expect(o.contingency.notes.map((n: { id: string }) => n.id)).toEqual([rejected.rows[1]!.id, rejected.rows[0]!.id]);
    expect(o.contingency.notes[0]).toMatchObject({ type: 'nfce', issuer_id: issuerId, deadline_at: deadlines[1]!.toISOString() });
    expect((await overview(other)).certificates).toEqual([]);
  });

  it("shows each section only to scopes that read it: a billing key gets usage, a reader of NFC-e no usage", async () => {
    const key = async (scopes: string[]) => {
      const res = await t.app.inject({ method: 'POST', url: '/v1/applications', headers: auth, payload: { name: scopes.join(' '), scopes } });
      expect(res.statusCode, res.body).toBe(201);
      return { authorization: `Bearer ${res.json().key}` };
    };
    const billing = await overview(await key(['account:read', 'billing:read']));
    expect(billing).toMatchObject({ documents: null, latency: null, rejections: null, contingency: null, certificates: null });
    expect(billing.usage.plan).toMatchObject({ id: expect.any(String) });
    const reader = await overview(await key(['account:read', 'nfe:read']));
    expect(reader.documents.types).toEqual(['nfe']);
    expect(reader.documents.today).toEqual([]);
    expect(reader.usage).toBeNull();
    const refused = await t.app.inject({ method: 'GET', url: '/v1/overview', headers: await key(['nfce:read']) });
    expect(refused.statusCode).toBe(403);
  });
});
