// docs/guides/api.md#contract-sandbox-and-secrets: "The sandbox database is reset every day at 04:00 UTC, so identifiers do not
// persist. The sandbox accepts a fixed public key and needs no signup."
// This file wipes the worker's shared database (vitest isolate: false): the reset itself makes the
// sandbox account again, which is all the harness prepared once per worker (prepareDatabase), and the
// files of one worker run one after another, so nothing else is using the database meanwhile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { workerJobs } from '../src/worker/handlers/index.js';
import type { Job } from '../src/infra/queue/queue.js';
import type { Ports } from '../src/platform/ports/ports.js';
import { nextResetAt, resetBetween } from '../src/platform/sandbox/reset-schedule.js';
import { SANDBOX_RESET_JOB, SandboxResetRefused, sandboxResetJob, scheduleNextSandboxReset } from '../src/platform/sandbox/sandbox-reset.js';
import { openDb, type Db } from '../src/infra/storage/db.js';
import { startRuntime, type Runtime } from '../src/runtime.js';
import { createTestApp, testSimulator, type TestApp } from './support/app.js';
import { ManualClock } from './support/clock.js';
import { getTestDb, testSchema } from './support/db.js';
import { emitSettled, readyIssuer, sale } from './support/nfce-flow.js';
import { eventually } from './support/webhook-receiver.js';

const RESET = { hour: 4, minute: 0 };
const SANDBOX = { authorization: 'Bearer sk_sandbox_public' };

let t: TestApp;
let other: Runtime;
let otherDb: Db | undefined;
let clock: ManualClock;

const resetJobs = (db: Db) =>
  db.query<{ dedupe_key: string; state: string; attempts: number; run_at: Date }>(
    `SELECT dedupe_key, state, attempts, run_at FROM jobs WHERE kind = $1 ORDER BY run_at`,
    [SANDBOX_RESET_JOB],
  );

beforeAll(async () => {
  const db = await getTestDb();
  // Jobs the files before this one left pending would run under the moved clock.
  await db.query(`UPDATE jobs SET state = 'done', locked_by = NULL, locked_until = NULL WHERE state IN ('pending', 'running')`).catch(() => undefined);
  clock = new ManualClock(new Date());
  t = await createTestApp({ role: 'all', clock, env: { SANDBOX_RESET_AT: '04:00' } });
  // The authority receives the notes on the gateway's clock, which the test moves by hours (else every
  // dhEmi would lie after the reception: MOC B09-10, 703).
  t.simulator.setClock(() => clock.now());
  const url = process.env.TEST_DATABASE_URL;
  otherDb = url ? await openDb({ databaseUrl: url, poolSize: 4, schema: testSchema }) : undefined;
  other = await startRuntime(t.config, { db: otherDb ?? t.db, role: 'all', clock, simulator: await testSimulator(), workerPollMs: 50 });
});

afterAll(async () => {
  // The next day's reset stays out of the files that follow (their apps have resets off anyway).
  await t?.db.query(`DELETE FROM jobs WHERE kind = $1 AND state = 'pending'`, [SANDBOX_RESET_JOB]);
  // The simulator is the worker's: the next file finds it on real time.
  t?.simulator.setClock(() => new Date());
  await other?.close();
  await otherDb?.close();
  await t?.runtime.close();
});

describe('reset schedule', () => {
  it('SANDBOX_RESET_AT: 04:00 by default, HH:MM or off, never in production; a bad value names the setting', () => {
    expect(loadConfig({}).sandboxResetAt).toEqual(RESET);
    expect(loadConfig({ SANDBOX_RESET_AT: '23:30' }).sandboxResetAt).toEqual({ hour: 23, minute: 30 });
    expect(loadConfig({ SANDBOX_RESET_AT: 'off' }).sandboxResetAt).toBeNull();
    expect(() => loadConfig({ SANDBOX_RESET_AT: '4am' })).toThrow(/SANDBOX_RESET_AT/);
    expect(() => loadConfig({ SANDBOX_RESET_AT: '24:00' })).toThrow(/SANDBOX_RESET_AT/);
  });

  it('the next reset is the first 04:00 UTC strictly after now', () => {
    expect(nextResetAt(new Date('2026-11-26T21:40:00Z'), RESET).toISOString()).toBe('2026-11-27T04:00:00.000Z');
    expect(nextResetAt(new Date('2026-11-27T03:59:59Z'), RESET).toISOString()).toBe('2026-11-27T04:00:00.000Z');
    expect(nextResetAt(new Date('2026-11-27T04:00:00Z'), RESET).toISOString()).toBe('2026-11-28T04:00:00.000Z');
    expect(resetBetween(RESET, new Date('2026-11-27T03:59:00Z'), new Date('2026-11-27T04:00:00Z'))).toBe(true);
    expect(resetBetween(RESET, new Date('2026-11-27T04:00:01Z'), new Date('2026-11-28T03:59:00Z'))).toBe(false);
    expect(resetBetween(null, new Date('2026-11-27T03:59:00Z'), new Date('2026-11-29T00:00:00Z'))).toBe(false);
  });
});

describe('daily sandbox reset across two processes on one database', () => {
  it('wipes every account once at 04:00 UTC, makes the sandbox account again and queues the next day', async () => {
    const second = other.app!;
    // Data of a signed-up account and of the shared sandbox account.
    const { auth, accountId } = await t.newAccount('Reset me');
    const issuerId = await readyIssuer(t, auth);
    const { note } = await emitSettled(t, auth, sale(issuerId));
    expect(note.status).toBe('authorized');
    const hook = await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: auth, payload: { url: 'http://127.0.0.1:9/hooks', event_types: ['*'] } });
    expect(hook.statusCode).toBe(201);
    const sandboxIssuer = await readyIssuer(t, SANDBOX);
    // A sale through each process: each keeps the issuer in memory for the next sales.
    for (const app of [t.app, second]) {
      const sold = await app.inject({ method: 'POST', url: '/v1/nfce', headers: { ...SANDBOX, prefer: 'wait=10' }, payload: sale(sandboxIssuer) });
      expect(sold.statusCode).toBe(201);
    }
    // Both processes know (and cache) the account's key.
    for (const app of [t.app, second]) expect((await app.inject({ method: 'GET', url: '/v1/issuers', headers: auth })).statusCode).toBe(200);
    const audit = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log');
    expect(audit.rows[0]!.n).toBeGreaterThan(0);
    expect((await t.db.query('SELECT 1 FROM sim_notes')).rows.length).toBeGreaterThan(0);

    // Health and the job queue name the coming reset.
    const due = nextResetAt(clock.now(), RESET);
    const day = due.toISOString().slice(0, 10);
    const health = (await t.app.inject({ method: 'GET', url: '/healthz/deep' })).json();
    expect(health.sandbox).toEqual({ reset_at: '04:00', next_reset_at: due.toISOString() });
    expect((await resetJobs(t.db)).rows).toEqual([expect.objectContaining({ dedupe_key: `sandbox-reset:${day}`, state: 'pending', run_at: due })]);

    clock.set(new Date(due.getTime() + 1_000));
    const done = await eventually(async () => (await resetJobs(t.db)).rows.find((r) => r.dedupe_key === `sandbox-reset:${day}` && r.state === 'done'), 20_000, 'the reset job done');
    // One run by one of the two runners (a second run would have been a second attempt).
    expect(done.attempts).toBe(1);

    // Gone: the account, its issuer, note, webhook, its audit trail; the sandbox account is back, empty.
    const left = await t.db.query<{ accounts: number; issuers: number; notes: number; hooks: number; audit: number }>(
      `SELECT (SELECT count(*)::int FROM accounts) AS accounts, (SELECT count(*)::int FROM issuers) AS issuers,
              (SELECT count(*)::int FROM notes) AS notes, (SELECT count(*)::int FROM webhook_endpoints) AS hooks,
              (SELECT count(*)::int FROM audit_log) AS audit`,
    );
    expect(left.rows[0]).toEqual({ accounts: 1, issuers: 0, notes: 0, hooks: 0, audit: 0 });
    expect((await t.db.query('SELECT id FROM accounts')).rows).toEqual([{ id: 'acc_sandbox' }]);
    expect((await t.db.query('SELECT 1 FROM accounts WHERE id = $1', [accountId])).rows.length).toBe(0);
    // The simulated authority shares the database here: its records went too.
    expect((await t.db.query('SELECT 1 FROM sim_notes')).rows).toEqual([]);
    // Migration bookkeeping survives: the processes keep running on the same schema.
    expect((await t.db.query('SELECT 1 FROM schema_migrations')).rows.length).toBeGreaterThan(0);

    for (const app of [t.app, second]) {
      const mine = await app.inject({ method: 'GET', url: '/v1/issuers', headers: SANDBOX });
      expect(mine.statusCode).toBe(200);
      expect(mine.json().data).toEqual([]);
      // The key cached a moment ago in each process belonged to a wiped application.
      expect((await app.inject({ method: 'GET', url: '/v1/issuers', headers: auth })).statusCode).toBe(401);
      expect((await app.inject({ method: 'GET', url: `/v1/nfce/${note.id}`, headers: SANDBOX })).statusCode).toBe(404);
      // The issuer this process remembered was wiped: a sale for it is refused, not half made.
      const stale = await app.inject({ method: 'POST', url: '/v1/nfce', headers: SANDBOX, payload: sale(sandboxIssuer) });
      expect(stale.statusCode, stale.body).toBe(422);
      expect(stale.json().details).toEqual([expect.objectContaining({ field: 'issuer_id' })]);
    }

    // Tomorrow's reset is queued for the next 04:00.
    const next = nextResetAt(clock.now(), RESET);
    expect(next.getTime() - due.getTime()).toBe(86_400_000);
    const pending = (await resetJobs(t.db)).rows.filter((r) => r.state === 'pending');
    expect(pending).toEqual([expect.objectContaining({ dedupe_key: `sandbox-reset:${next.toISOString().slice(0, 10)}`, run_at: next })]);
    expect((await t.app.inject({ method: 'GET', url: '/healthz/deep' })).json().sandbox.next_reset_at).toBe(next.toISOString());
    // The wipe took the certificate check's pending run with the queue: it was queued again.
    expect((await t.db.query(`SELECT 1 FROM jobs WHERE kind = 'certificates.expiry-check' AND state = 'pending'`)).rows.length).toBeGreaterThan(0);

    // The sandbox works as after a fresh start: an issuer can be made and sells.
    const fresh = await readyIssuer(t, SANDBOX);
    const again = await emitSettled(t, SANDBOX, sale(fresh));
    expect(again.note.status).toBe('authorized');

    // A key looked up after the reset time but before the wipe ran (a late job): the wipe's signal on
    // the notification bus drops it at once in every process on that bus (both here with PGlite; with
    // TEST_DATABASE_URL the second runtime has a bus of its own and the 5 s cache limit covers it).
    const late = await t.newAccount('Looked up late');
    const onBus = otherDb ? [t.app] : [t.app, second];
    for (const app of onBus) expect((await app.inject({ method: 'GET', url: '/v1/issuers', headers: late.auth })).statusCode).toBe(200);
    const job = { id: 'job_late', kind: SANDBOX_RESET_JOB, payload: { day }, attempts: 1 } as unknown as Job<{ day: string }>;
    await sandboxResetJob({ db: t.db, clock, config: t.config, notifications: t.ctx.notifications }, job, async () => undefined);
    for (const app of onBus) expect((await app.inject({ method: 'GET', url: '/v1/issuers', headers: late.auth })).statusCode).toBe(401);
  });
});

describe('never in production', () => {
  it('the job refuses and wipes nothing; start() queues no reset', async () => {
    const prod = { ...t.config, env: 'production' as const, sandboxResetAt: RESET };
    const before = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM accounts');
    const job = { id: 'job_x', kind: SANDBOX_RESET_JOB, payload: { day: '2000-01-01' }, attempts: 1 } as unknown as Job<{ day: string }>;
    await expect(sandboxResetJob({ db: t.db, clock, config: prod, notifications: t.ctx.notifications }, job, async () => undefined)).rejects.toBeInstanceOf(SandboxResetRefused);
    expect((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM accounts')).rows[0]!.n).toBe(before.rows[0]!.n);

    await t.db.query(`DELETE FROM jobs WHERE kind = $1 AND state = 'pending'`, [SANDBOX_RESET_JOB]);
    expect(await scheduleNextSandboxReset(t.db, prod, clock.now())).toBeNull();
    const jobs = workerJobs({ ...t.ctx, config: prod } as Ports);
    await jobs.start();
    jobs.close();
    expect((await t.db.query(`SELECT 1 FROM jobs WHERE kind = $1 AND state = 'pending'`, [SANDBOX_RESET_JOB])).rows.length).toBe(0);
    // A production configuration never has a reset time, whatever SANDBOX_RESET_AT says.
    expect(loadConfig({ GATEWAY_ENV: 'production', SANDBOX_RESET_AT: '04:00' }).sandboxResetAt).toBeNull();
  });
});
