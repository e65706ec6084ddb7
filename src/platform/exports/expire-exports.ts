import { enqueueJob, type Job } from '../../infra/queue/queue.js';
import type { Ports } from '../ports/ports.js';
import type { Queryable } from '../../infra/storage/db.js';
import { expireExports } from './storage/export-repository.js';
import { EXPORT_EXPIRE_JOB } from './export-rules.js';

/** Exports ended per statement: bounds one transaction; the job runs until none is left. */
const EXPIRE_BATCH = 200;

/** Queues the expiry run of `day` (UTC, at midnight); its dedupe key keeps it one job across workers. */
export async function scheduleExportExpiry(db: Queryable, day: string, now: Date): Promise<void> {
  const runAt = new Date(`${day}T00:00:00.000Z`);
  await enqueueJob(db, EXPORT_EXPIRE_JOB, { day }, { runAt: runAt < now ? now : runAt, now, dedupeKey: `exports-expire:${day}`, maxAttempts: 10 });
}

/**
 * The daily job exports.expire: every ready export past its `expires_at` loses its ZIP (the XMLs stay
 * where the gateway keeps them: docs/fiscal/retention.md) and is `expired`; then the next day's run is
 * queued (a recurring job, like the certificate check).
 */
export async function expireExportsJob(deps: Pick<Ports, 'db' | 'clock'>, job: Job<{ day: string }>): Promise<void> {
  const now = deps.clock.now();
  while ((await expireExports(deps.db, now, EXPIRE_BATCH)) === EXPIRE_BATCH);
  // The day after this run's, or after today when the run comes late (a stopped worker does not replay each day missed).
  const today = now.toISOString().slice(0, 10);
  const next = new Date(`${job.payload.day > today ? job.payload.day : today}T00:00:00.000Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  await scheduleExportExpiry(deps.db, next.toISOString().slice(0, 10), now);
}
