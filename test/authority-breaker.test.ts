// A circuit breaker per authority endpoint, shared by every gateway process through the
// database. Two runtimes (two gateway processes: their own breaker, authority clients, worker and
// probe timer) share one database - with TEST_DATABASE_URL the second one opens its own pool on the
// same schema, as another process would; PGlite is one process only, so there they share its handle.
// Failures come from the real in-process simulator's queued scenarios; the breakers run on a clock
// the test moves.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ParsedCertificate } from '../src/fiscal/certificate/pfx.js';
import type { BreakerTarget } from '../src/fiscal/sefaz/breaker-key.js';
import { breakerKeyFor } from '../src/fiscal/sefaz/breaker-key.js';
import type { SefazClient } from '../src/fiscal/sefaz/sefaz-client.js';
import { loadIssuerSigningMaterial } from '../src/platform/issuers/issuer-signing-material.js';
import { openDb, type Db } from '../src/infra/storage/db.js';
import { startRuntime, type Runtime } from '../src/runtime.js';
import { createTestApp, testSimulator, type TestApp, TEST_HEALTH_AUTH } from './support/app.js';
import { ManualClock } from './support/clock.js';
import { getTestDb, testSchema } from './support/db.js';
import { emitSettled, readyIssuer, sale } from './support/nfce-flow.js';
import { eventually } from './support/webhook-receiver.js';

const SP = { uf: 'SP', model: 65 as const, tpAmb: 2 as const };
// The sandbox scopes breakers per calling certificate (breaker-key.ts): the target names it once known.
let CONSULT: BreakerTarget = { ...SP, service: 'consultaProtocolo' };
const COOLDOWN_MS = 15_000;
const someKey = () => `35261106157250000116650010000${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}1000000000`.slice(0, 44);

let t: TestApp;
let other: Runtime;
let otherDb: Db | undefined;
let clock: ManualClock;
let auth: { authorization: string };
let accountId: string;
let issuerId: string;
let cert: ParsedCertificate;
let client: SefazClient;
const closedIn: Record<'a' | 'b', string[]> = { a: [], b: [] };

beforeAll(async () => {
  // The files this worker ran before (isolate: false, one database and one simulator per worker) may
  // leave jobs pending and faults queued: a leftover job's call would spend the faults this file queues.
  const db = await getTestDb();
  // (No jobs table yet when this is the worker's first file: nothing to neutralize then.)
  await db.query(`UPDATE jobs SET state = 'done', locked_by = NULL, locked_until = NULL WHERE state IN ('pending', 'running')`).catch(() => undefined);
  (await testSimulator()).setScenario(null);
  (await testSimulator()).endOutage();
  clock = new ManualClock(new Date());
  const env = { AUTHORITY_BREAKER_FAILURES: '3', AUTHORITY_BREAKER_WINDOW_MS: '30000', AUTHORITY_BREAKER_COOLDOWN_MS: String(COOLDOWN_MS), AUTHORITY_BREAKER_MAX_COOLDOWN_MS: '120000' };
  t = await createTestApp({ role: 'all', clock, env });
  const url = process.env.TEST_DATABASE_URL;
  otherDb = url ? await openDb({ databaseUrl: url, poolSize: 4, schema: testSchema }) : undefined;
  other = await startRuntime(t.config, { db: otherDb ?? t.db, role: 'all', clock, simulator: await testSimulator(), workerPollMs: 50 });
  ({ auth, accountId } = await t.newAccount('Breaker'));
  issuerId = await readyIssuer(t, auth);
  cert = (await loadIssuerSigningMaterial(t.db, t.ctx.secrets, accountId, issuerId))!.certificate!;
  client = t.ctx.authority.clientFor(cert, accountId);
  CONSULT = { ...CONSULT, certificate: t.ctx.authority.callerId(cert, accountId) };
  t.ctx.breaker.onClosed((k) => closedIn.a.push(k));
  other.ctx.breaker.onClosed((k) => closedIn.b.push(k));
});

afterAll(async () => {
  t.simulator.setScenario(null);
  t.simulator.endOutage();
  await t.db.query('DELETE FROM authority_breakers');
  await other?.close();
  await otherDb?.close();
  await t?.runtime.close();
});

beforeEach(async () => {
  // Another file of this worker may have left breakers of the shared simulator's endpoints behind.
  t.simulator.setScenario(null);
  await t.db.query('DELETE FROM authority_breakers');
  await Promise.all([t.ctx.breaker.refresh(), other.ctx.breaker.refresh()]);
});

const consult = (headers?: Record<string, string>, responseTimeoutMs?: number) =>
  client.consult({ ...SP, accessKey: someKey(), ...(headers ? { headers } : {}), ...(responseTimeoutMs ? { responseTimeoutMs } : {}) });
const stateOf = async (rt: { ctx: Runtime['ctx'] }, key = breakerKeyFor(CONSULT, t.ctx.authority.options.endpointOverride)) =>
  (await rt.ctx.breaker.states()).find((s) => s.endpoint === key);

/** Three calls without an answer: 108, a timeout, an HTTP 500. */
async function openConsultBreaker(): Promise<void> {
  t.simulator.setScenario('unavailable', { service: 'consultaProtocolo' });
  t.simulator.setScenario('timeout', { service: 'consultaProtocolo' });
  t.simulator.setScenario('http-500', { service: 'consultaProtocolo' });
  expect((await consult()).kind).toBe('unavailable');
  expect((await consult(undefined, 500)).kind).toBe('timeout');
  expect((await consult()).kind).toBe('unavailable');
}

describe('authority circuit breaker', () => {
  it('breakerKeyFor: one breaker per endpoint URL (states served by SVRS share theirs)', () => {
    const svrs = ['AC', 'RJ', 'BA'].map((uf) => breakerKeyFor({ uf, model: 65, tpAmb: 1, service: 'autorizacao' }));
    expect(new Set(svrs).size).toBe(1);
    expect(breakerKeyFor({ uf: 'SP', model: 65, tpAmb: 1, service: 'autorizacao' })).not.toBe(svrs[0]);
    expect(breakerKeyFor({ uf: 'SP', model: 65, tpAmb: 2, service: 'autorizacao' })).not.toBe(breakerKeyFor({ uf: 'SP', model: 65, tpAmb: 1, service: 'autorizacao' }));
    expect(breakerKeyFor({ ...SP, service: 'consultaProtocolo' }, { baseUrl: 'https://127.0.0.1:1' })).toBe('https://127.0.0.1:1/NFeConsultaProtocolo4');
    // In the sandbox (an endpoint override) the calling certificate scopes it; in production it does not.
    expect(breakerKeyFor({ ...SP, service: 'consultaProtocolo', certificate: 'ab'.repeat(32) }, { baseUrl: 'https://127.0.0.1:1' })).toBe(`https://127.0.0.1:1/NFeConsultaProtocolo4#${'ab'.repeat(8)}`);
    expect(breakerKeyFor({ ...SP, service: 'consultaProtocolo', certificate: 'ab'.repeat(32) })).toBe(breakerKeyFor({ ...SP, service: 'consultaProtocolo' }));
  });

  it('answers, rejections and forced sandbox faults do not count; three failures in a row open it for both processes', async () => {
    t.simulator.setScenario('unavailable', { service: 'consultaProtocolo', times: 2 });
    t.simulator.setScenario('reject:999', { service: 'consultaProtocolo' });
    expect((await consult()).kind).toBe('unavailable');
    expect((await consult()).kind).toBe('unavailable');
    expect((await stateOf(t))?.failures).toBe(2);
    expect((await consult()).kind).toBe('rejected');
    expect(await stateOf(t)).toMatchObject({ state: 'closed', failures: 0 });
    // X-Sandbox-Scenario is one account's rehearsal, not the endpoint's health.
    for (let i = 0; i < 3; i++) expect((await consult({ 'X-Sandbox-Scenario': 'unavailable' })).kind).toBe('unavailable');
    expect(await stateOf(t)).toMatchObject({ state: 'closed', failures: 0 });
    expect(await t.ctx.breaker.isOpen(CONSULT)).toBe(false);

    await openConsultBreaker();
    expect(await t.ctx.breaker.isOpen(CONSULT)).toBe(true);
    await eventually(() => other.ctx.breaker.isOpen(CONSULT), 5_000, 'the other process to see the breaker open');
    const state = await stateOf(other);
    expect(state).toMatchObject({ state: 'open', failures: 3, service: 'NFeConsultaProtocolo4', last_error: expect.stringContaining('HTTP 500') });
    expect(Date.parse(state!.next_probe_at!) - Date.parse(state!.opened_at!)).toBe(COOLDOWN_MS);
    // Another service of the same authorizer is its own breaker.
    expect(await other.ctx.breaker.isOpen({ ...SP, service: 'autorizacao' })).toBe(false);
  });

  it('failures farther apart than the window do not open it', async () => {
    t.simulator.setScenario('unavailable', { service: 'consultaProtocolo', times: 3 });
    await consult();
    await consult();
    clock.advance(30_001);
    await consult();
    expect(await stateOf(t)).toMatchObject({ state: 'closed', failures: 1 });
  });

  it('after the cool-down one process probes (NFeStatusServico4), a failed probe doubles the wait, a good one closes it everywhere', async () => {
    await openConsultBreaker();
    const key = breakerKeyFor(CONSULT, t.ctx.authority.options.endpointOverride);
    const before = t.simulator.stats().statusRequests;
    await Promise.all([t.ctx.breaker.probeDueNow(), other.ctx.breaker.probeDueNow()]);
    expect(t.simulator.stats().statusRequests).toBe(before); // not due yet

    t.simulator.setScenario('unavailable', { service: 'statusServico' });
    clock.advance(COOLDOWN_MS);
    expect(await t.ctx.breaker.isOpen(CONSULT)).toBe(false); // due: no longer "open and waiting"
    // Both processes try at once (their timers may too): the row lock gives the probe to one.
    const reports = (await Promise.all([t.ctx.breaker.probeDueNow(), other.ctx.breaker.probeDueNow()])).flat();
    const reopened = await eventually(async () => {
      const s = await stateOf(t);
      return s?.state === 'open' && s.last_error?.startsWith('probe:') ? s : null;
    }, 10_000, 'the failed probe to re-open the breaker');
    expect(t.simulator.stats().statusRequests).toBe(before + 1);
    expect(reports.filter((r) => r.claimed).length).toBeLessThanOrEqual(1);
    expect(reopened.last_error).toContain('cStat 108');
    expect(Date.parse(reopened.next_probe_at!) - clock.now().getTime()).toBe(2 * COOLDOWN_MS);
    expect(await t.ctx.breaker.isOpen(CONSULT)).toBe(true);

    clock.advance(COOLDOWN_MS);
    await Promise.all([t.ctx.breaker.probeDueNow(), other.ctx.breaker.probeDueNow()]);
    expect(t.simulator.stats().statusRequests).toBe(before + 1); // 30 s now, not 15

    clock.advance(COOLDOWN_MS);
    await Promise.all([t.ctx.breaker.probeDueNow(), other.ctx.breaker.probeDueNow()]);
    await eventually(async () => (await stateOf(t))?.state === 'closed', 10_000, 'the good probe to close the breaker');
    expect(t.simulator.stats().statusRequests).toBe(before + 2);
    expect(await stateOf(other)).toMatchObject({ state: 'closed', failures: 0, opened_at: null, next_probe_at: null });
    expect(await other.ctx.breaker.isOpen(CONSULT)).toBe(false);
    // Whichever process closed it tells its listeners at once; the other at its next read.
    await eventually(async () => closedIn.a.includes(key) && closedIn.b.includes(key), 5_000, 'onClosed in both processes');
  });

  it("the simulator's outage (every service 108): opened by the sales' calls, the probe meets it, the first probe after it closes", async () => {
    t.simulator.startOutage({ mode: 'unavailable', seconds: 600 });
    try {
      for (let i = 0; i < 3; i++) expect(await consult()).toMatchObject({ kind: 'unavailable', cStat: 108 });
      expect(await t.ctx.breaker.isOpen(CONSULT)).toBe(true);
      await eventually(() => other.ctx.breaker.isOpen(CONSULT), 5_000, 'the other process to see the breaker open');
      const before = t.simulator.stats().statusRequests;
      clock.advance(COOLDOWN_MS);
      await Promise.all([t.ctx.breaker.probeDueNow(), other.ctx.breaker.probeDueNow()]);
      await eventually(async () => (await stateOf(t))?.last_error?.startsWith('probe: cStat 108'), 10_000, 'the probe to meet the outage');
      expect(t.simulator.stats().statusRequests).toBe(before + 1);
      expect(await t.ctx.breaker.isOpen(CONSULT)).toBe(true);
    } finally {
      t.simulator.endOutage();
    }
    clock.advance(2 * COOLDOWN_MS);
    await Promise.all([t.ctx.breaker.probeDueNow(), other.ctx.breaker.probeDueNow()]);
    await eventually(async () => (await stateOf(other))?.state === 'closed', 10_000, 'the probe after the outage to close the breaker');
  });

  it('an answer while open closes it (the endpoint is back before the probe)', async () => {
    await openConsultBreaker();
    expect((await consult()).kind).toBe('not-found');
    expect(await stateOf(other)).toMatchObject({ state: 'closed', failures: 0 });
  });

  it('/healthz/deep lists every called endpoint with its breaker and stays ok while one is open', async () => {
    const { note } = await emitSettled(t, auth, sale(issuerId));
    expect(note.status).toBe('authorized');
    await openConsultBreaker();
    const res = await t.app.inject({ method: 'GET', url: '/healthz/deep', headers: TEST_HEALTH_AUTH });
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json();
    expect(report.status).toBe('ok');
    const byService = Object.fromEntries(report.authority.map((b: { service: string }) => [b.service, b]));
    expect(byService.NFeConsultaProtocolo4).toMatchObject({ state: 'open', failures: 3, authorizer: expect.any(String), next_probe_at: expect.any(String) });
    // The sale went through the job's client: its authorization was recorded without the use case knowing.
    expect(byService.NFeAutorizacao4).toMatchObject({ state: 'closed', failures: 0, last_error: null });
  });
});
