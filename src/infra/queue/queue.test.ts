import { beforeAll, describe, expect, it } from 'vitest';
import { prepareDatabase } from '../../bootstrap.js';
import { randomBase62 } from '../../kernel/ids.js';
import type { Db } from '../storage/db.js';
import { getTestDb } from '../../../test/support/db.js';
import { ManualClock } from '../../../test/support/clock.js';
import { eventually } from '../../../test/support/webhook-receiver.js';
import { backoffMs, claimJobs, completeJob, enqueueJob } from './queue.js';
import { JOB_COMPLETED, JobRunner, RetryLater } from './runner.js';
import { typedHandler } from './job-payload.js';

let db: Db;
beforeAll(async () => {
  db = await getTestDb();
  await prepareDatabase(db, { env: 'sandbox' });
});

const kind = () => 'test-' + randomBase62(8);

describe('job queue', () => {
  it('never gives one job to two workers, and a dedupe key enqueues once', async () => {
    const k = kind();
    const now = new Date();
    for (let i = 0; i < 30; i++) await enqueueJob(db, k, { i }, { runAt: now, now });
    expect(await enqueueJob(db, k, {}, { runAt: now, now, dedupeKey: `${k}:once` })).not.toBeNull();
    expect(await enqueueJob(db, k, {}, { runAt: now, now, dedupeKey: `${k}:once` })).toBeNull();
    const claims = await Promise.all(
      Array.from({ length: 6 }, (_, w) => claimJobs(db, { kinds: [k], limit: 10, leaseMs: 60_000, workerId: `w${w}`, now })),
    );
    const ids = claims.flat().map((j) => j.id);
    expect(ids).toHaveLength(31);
    expect(new Set(ids).size).toBe(31);
  });

  it('a job whose payload does not fit its type fails at its first attempt, naming the field; a fitting one runs', async () => {
    const k = kind();
    const clock = new ManualClock(new Date());
    const ran: string[] = [];
    const runner = new JobRunner({
      db,
      clock,
      pollMs: 10,
      handlers: { [k]: typedHandler({ noteId: 'string', contingency: 'boolean?' }, async (job) => void ran.push(job.payload.noteId)) },
    });
    const now = clock.now();
    await enqueueJob(db, k, { noteId: 'nfce_1' }, { runAt: now, now, maxAttempts: 25 });
    await enqueueJob(db, k, { noteId: 42 }, { runAt: now, now, maxAttempts: 25 });
    await enqueueJob(db, k, { noteId: 'nfce_2', contingency: 'yes' }, { runAt: now, now, maxAttempts: 25 });
    runner.start();
    await eventually(async () => (await db.query<{ c: number }>(`SELECT count(*)::int AS c FROM jobs WHERE kind = $1 AND state IN ('done', 'failed')`, [k])).rows[0]!.c === 3, 20_000, 'the three outcomes');
    await runner.stop();
    expect(ran).toEqual(['nfce_1']);
    const failed = await db.query<{ attempts: number; last_error: string }>(`SELECT attempts, last_error FROM jobs WHERE kind = $1 AND state = 'failed' ORDER BY last_error`, [k]);
    expect(failed.rows).toEqual([
      { attempts: 1, last_error: "the job payload's contingency must be a boolean" },
      { attempts: 1, last_error: "the job payload's noteId must be a non-empty string" },
    ]);
  });

  it('hands a job whose lease ran out (worker died) to another worker', async () => {
    const k = kind();
    const now = new Date('2026-11-21T12:00:00Z');
    await enqueueJob(db, k, {}, { runAt: now, now });
    const first = await claimJobs(db, { kinds: [k], limit: 1, leaseMs: 1000, workerId: 'dead', now });
    expect(first).toHaveLength(1);
    expect(await claimJobs(db, { kinds: [k], limit: 1, leaseMs: 1000, workerId: 'b', now: new Date(now.getTime() + 500) })).toHaveLength(0);
    const again = await claimJobs(db, { kinds: [k], limit: 1, leaseMs: 1000, workerId: 'b', now: new Date(now.getTime() + 1500) });
    expect(again.map((j) => [j.id, j.attempts])).toEqual([[first[0]!.id, 2]]);
  });

  it('runs jobs, retries failures with backoff and gives up after max attempts', async () => {
    const k = kind();
    const clock = new ManualClock(new Date());
    const seen: string[] = [];
    const runner = new JobRunner({
      db,
      clock,
      pollMs: 10,
      handlers: {
        [k]: async (job) => {
          const p = job.payload as { name: string };
          seen.push(`${p.name}#${job.attempts}`);
          if (p.name === 'flaky' && job.attempts < 2) throw new Error('transient');
          if (p.name === 'later' && job.attempts < 2) throw new RetryLater(5_000, 'lot in process');
          if (p.name === 'broken') throw new Error('always');
        },
      },
    });
    const now = clock.now();
    for (const name of ['ok', 'flaky', 'later', 'broken']) await enqueueJob(db, k, { name }, { runAt: now, now, maxAttempts: 2 });
    runner.start();
    await waitFor(() => seen.length === 4, 'the four first attempts');
    // The handlers ran; wait until the runner has recorded their outcomes too, or moving the clock
    // past the leases would hand the still-running 'ok' job out again (seen on a loaded machine).
    await eventually(async () => (await db.query<{ c: number }>(`SELECT count(*)::int AS c FROM jobs WHERE kind = $1 AND state = 'running'`, [k])).rows[0]!.c === 0, 20_000, 'the outcomes recorded');
    clock.advance(10 * 60_000); // past every backoff
    runner.poke();
    await waitFor(() => seen.length === 7, 'the retries');
    await runner.stop();
    expect(seen.sort()).toEqual(['broken#1', 'broken#2', 'flaky#1', 'flaky#2', 'later#1', 'later#2', 'ok#1']);
    const states = await db.query<{ state: string; c: number }>(
      'SELECT state, count(*)::int AS c FROM jobs WHERE kind = $1 GROUP BY state ORDER BY state', [k],
    );
    expect(states.rows).toEqual([{ state: 'done', c: 3 }, { state: 'failed', c: 1 }]);
  });

  it('asks the queue once for work it can take in one claim, when handlers close their own jobs', async () => {
    const k = kind();
    const now = new Date();
    for (let i = 0; i < 3; i++) await enqueueJob(db, k, { i }, { runAt: now, now });
    let claims = 0;
    const counting: Db = { ...db, query: (sql, params) => ((claims += Number(sql.includes("SET state = 'running'"))), db.query(sql, params)) };
    let ran = 0;
    const runner = new JobRunner({
      db: counting,
      clock: { now: () => new Date() },
      pollMs: 60_000,
      handlers: {
        [k]: async (job, { workerId }) => {
          await completeJob(db, job.id, workerId, new Date());
          ran++;
          return JOB_COMPLETED;
        },
      },
    });
    runner.start();
    await waitFor(() => ran === 3, 'three jobs');
    // After its handler returns, a job's end (and any claim it would start) runs in microtasks: a
    // macrotask turn later they are all done, however busy the machine.
    await new Promise((r) => setImmediate(r));
    await runner.stop();
    // One claim found all three (fewer than its room of 16): no empty claim after it or after each job.
    expect(claims).toBe(1);
  });

  it('a job enqueued while a claim is under way is picked up at once, not at the next poll', async () => {
    const k = kind();
    const now = new Date();
    await enqueueJob(db, k, { name: 'first' }, { runAt: now, now });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let firstClaim = true;
    const slowFirstClaim: Db = {
      ...db,
      query: async (sql, params) => {
        const r = await db.query(sql, params);
        if (firstClaim && sql.includes("SET state = 'running'")) {
          firstClaim = false;
          claimHeld = true;
          await gate; // the claim has its answer; the runner has not seen it yet
        }
        return r as never;
      },
    };
    const seen: string[] = [];
    let claimHeld = false;
    const runner = new JobRunner({
      db: slowFirstClaim,
      clock: { now: () => new Date() },
      pollMs: 60_000,
      handlers: {
        [k]: async (job, { workerId }) => {
          await completeJob(db, job.id, workerId, new Date());
          seen.push((job.payload as { name: string }).name);
          return JOB_COMPLETED;
        },
      },
    });
    runner.start();
    await waitFor(() => claimHeld, 'the first claim');
    await enqueueJob(db, k, { name: 'second' }, { runAt: now, now });
    runner.poke(); // as the API does after a sale, while the first claim is still under way
    release();
    // Not at the next poll: that is a minute away (pollMs), far beyond this guard.
    await waitFor(() => seen.length === 2, 'both jobs', 20_000);
    await runner.stop();
    // Both run at once once the held claim is released: either may finish first.
    expect(seen.sort()).toEqual(['first', 'second']);
  });

  it('a runner at capacity that is poked keeps its event loop free', async () => {
    const k = kind();
    const now = new Date();
    for (let i = 0; i < 3; i++) await enqueueJob(db, k, { i }, { runAt: now, now });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let started = 0;
    const runner = new JobRunner({
      db,
      clock: { now: () => new Date() },
      concurrency: 1,
      pollMs: 60_000,
      handlers: {
        [k]: async () => {
          started++;
          await gate;
        },
      },
    });
    runner.start();
    await waitFor(() => started === 1, 'the first job');
    for (let i = 0; i < 5; i++) runner.poke(); // e.g. sales arriving while the only slot is busy
    // A runner that spun on its own pokes would starve this timer.
    await new Promise((r) => setTimeout(r, 20));
    expect(started).toBe(1);
    release();
    await waitFor(() => started === 3, 'the other two jobs');
    await runner.stop();
  });

  it('backoff grows exponentially with jitter and a cap', () => {
    expect(backoffMs(1, 1000, 300_000, () => 0)).toBe(500);
    expect(backoffMs(3, 1000, 300_000, () => 1)).toBe(4000);
    expect(backoffMs(30, 1000, 300_000, () => 1)).toBe(300_000);
  });
});

const waitFor = (cond: () => boolean, what: string, ms = 20_000) => eventually(async () => cond(), ms, what);

