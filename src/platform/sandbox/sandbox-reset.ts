import type { Job } from '../../infra/queue/queue.js';
import { dropJobsExcept, enqueueJob } from '../../infra/queue/queue.js';
import { clearSigningMaterialCache } from '../issuers/issuer-signing-material.js';
import type { Ports } from '../ports/ports.js';
import type { Queryable } from '../../infra/storage/db.js';
import { nextResetAt, resetInstantOn } from './reset-schedule.js';
import { ensureSandboxAccount } from './sandbox-account.js';

export const SANDBOX_RESET_JOB = 'sandbox.reset';
/**
 * Published on the notification bus after a wipe (not an account id: those start with `acc_`), so
 * every process drops the API keys it remembers at once. Only a hint, as every bus message: a
 * lookup cached before the reset time is refused anyway (resetBetween), and any other within 5 s.
 */
export const SANDBOX_RESET_SIGNAL = 'sandbox.reset';

type Ctx = Pick<Ports, 'db' | 'clock' | 'config' | 'notifications'>;

// Kept across a reset: what the processes need to keep running. Migration bookkeeping (the gateway's
// schema_migrations, the simulator's sim_migrations), the authority endpoints' breakers (the state of
// SEFAZ, not of anyone's data) and the job queue, from which only the other jobs are removed: this
// job's own row must stay so the runner can settle it, and the record of each day's reset stays.
const KEPT = new Set(['jobs', 'authority_breakers']);
const isBookkeeping = (table: string) => table.endsWith('_migrations');

/** Refused in production: the daily wipe is a sandbox promise (docs/guides/api.md#contract-sandbox-and-secrets), never a production action. */
export class SandboxResetRefused extends Error {
  constructor() {
    super('the sandbox reset never runs in production');
  }
}

/**
 * Queues the next reset (the first reset time after `now`) once, whoever asks: the dedupe key per
 * date makes it one job across processes. Null when resets are off or in production.
 */
export async function scheduleNextSandboxReset(db: Queryable, config: Ctx['config'], now: Date): Promise<Date | null> {
  const at = config.sandboxResetAt;
  if (config.env === 'production' || !at) return null;
  const runAt = nextResetAt(now, at);
  const day = runAt.toISOString().slice(0, 10);
  await enqueueJob(db, SANDBOX_RESET_JOB, { day }, { runAt, now, dedupeKey: `sandbox-reset:${day}`, maxAttempts: 10 });
  return runAt;
}

/**
 * The job: wipes every account's data, recreates the sandbox account, and queues tomorrow's reset.
 * `requeueRecurring` queues the other recurring jobs again (the certificate check, the received NF-e
 * sweep): the wipe removed their pending runs with the rest of the queue.
 */
export async function sandboxResetJob(ctx: Ctx, job: Job<{ day: string }>, requeueRecurring: () => Promise<void>): Promise<void> {
  if (ctx.config.env === 'production') throw new SandboxResetRefused();
  // Turned off since it was queued (or a process with resets off picked up another's job): no wipe.
  if (!ctx.config.sandboxResetAt) return;
  // A job queued for a later time than configured now (SANDBOX_RESET_AT changed) still waits its turn.
  if (resetInstantOn(job.payload.day, ctx.config.sandboxResetAt) > ctx.clock.now()) {
    await scheduleNextSandboxReset(ctx.db, ctx.config, ctx.clock.now());
    return;
  }
  await wipeSandbox(ctx.db, job.id);
  await ctx.notifications.publish(SANDBOX_RESET_SIGNAL).catch(() => undefined);
  await requeueRecurring();
  await scheduleNextSandboxReset(ctx.db, ctx.config, ctx.clock.now());
}

/**
 * Empties every data table of the current schema in one transaction and makes the sandbox account
 * again, as a fresh `npm start` leaves the database. The tables are listed from the catalog, so a
 * table a later migration adds is wiped too; the simulator's sim_* tables go with them when it
 * shares this database.
 *
 * The audit log stays append-only: its trigger (migration 0005) refuses UPDATE and DELETE row by
 * row, and TRUNCATE fires no row trigger in PostgreSQL, so the wipe is a TRUNCATE of the whole
 * table, never deleted rows. Only the job queue loses rows by DELETE (see KEPT above).
 */
export async function wipeSandbox(db: Ctx['db'], keepJobId?: string): Promise<string[]> {
  const tables = await db.transaction(async (tx) => {
    const listed = await tx.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
    );
    const wiped = listed.rows.map((r) => r.table_name).filter((t) => !KEPT.has(t) && !isBookkeeping(t));
    await dropJobsExcept(tx, SANDBOX_RESET_JOB, keepJobId);
    if (wiped.length) await tx.query(`TRUNCATE ${wiped.map((t) => `"${t}"`).join(', ')} RESTART IDENTITY`);
    await ensureSandboxAccount(tx);
    return wiped;
  });
  // This process's memory of wiped certificates and keys (other processes: see resetBetween's callers).
  clearSigningMaterialCache();
  return tables;
}
