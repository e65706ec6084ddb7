import type { Queryable } from '../../kernel/db-handle.js';
import { newId } from '../../kernel/ids.js';

export interface Job<P = unknown> {
  id: string;
  kind: string;
  payload: P;
  attempts: number;
  max_attempts: number;
  run_at: Date;
}

/** A payload that does not fit its job type (job-payload.ts): the runner fails the job without retrying it. */
export class JobPayloadError extends Error {}

export interface EnqueueOptions {
  runAt: Date;
  now: Date;
  maxAttempts?: number;
  /** At most one job per dedupe key ever: a second enqueue is a no-op (e.g. `authorize:<note id>`). */
  dedupeKey?: string;
}

/** Adds a job in the caller's transaction, so the job exists if and only if the change that needs it does. */
export async function enqueueJob(tx: Queryable, kind: string, payload: unknown, o: EnqueueOptions): Promise<string | null> {
  const id = newId('job');
  const r = await tx.query(
    `INSERT INTO jobs (id, kind, payload, run_at, max_attempts, dedupe_key, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
     ON CONFLICT (dedupe_key) DO NOTHING`,
    [id, kind, JSON.stringify(payload), o.runAt, o.maxAttempts ?? 25, o.dedupeKey ?? null, o.now],
  );
  return r.rowCount > 0 ? id : null;
}

/**
 * The queue's INSERT as a statement part, for a change that writes its job in the same statement as
 * itself (a note's insert, its settlement: one round trip each). Each value is an SQL expression over
 * `from`'s rows; a repeated dedupe key is a no-op, as with enqueueJob. The jobs table is written only
 * here and by the database's enqueue_job() (migration 48), which the triggers call.
 */
export function insertJobsSql(v: { id: string; kind: string; payload: string; runAt: string; maxAttempts: string; dedupeKey: string; at: string; from: string }): string {
  return `INSERT INTO jobs (id, kind, payload, run_at, max_attempts, dedupe_key, created_at, updated_at)
       SELECT ${v.id}, ${v.kind}, ${v.payload}, ${v.runAt}, ${v.maxAttempts}, ${v.dedupeKey}, ${v.at}, ${v.at} FROM ${v.from}
       ON CONFLICT (dedupe_key) DO NOTHING`;
}

/** completeJob as a statement part: the job whose lease `workerId` holds is done (SQL expressions). */
export function completeJobSql(id: string, workerId: string, now: string): string {
  return `UPDATE jobs SET state = 'done', locked_by = NULL, locked_until = NULL, updated_at = ${now} WHERE id = ${id} AND locked_by = ${workerId}`;
}

/** Empties the queue but for `keepKind` and the job `keepId` (the sandbox's daily wipe, in its transaction). */
export async function dropJobsExcept(tx: Queryable, keepKind: string, keepId: string | undefined): Promise<void> {
  await tx.query(`DELETE FROM jobs WHERE kind <> $1 AND id <> $2`, [keepKind, keepId ?? '']);
}

/**
 * Leases up to `limit` due jobs of the given kinds to one worker. SKIP LOCKED lets many workers in
 * many processes claim concurrently without blocking or double-claiming; a lease that runs out (the
 * worker died) makes the job claimable again, so every step must be safe to run twice.
 */
export async function claimJobs(
  db: Queryable,
  o: { kinds: readonly string[]; limit: number; leaseMs: number; workerId: string; now: Date },
): Promise<Job[]> {
  const r = await db.query<Job>(
    `UPDATE jobs SET state = 'running', attempts = attempts + 1, locked_by = $3, locked_until = $4, updated_at = $5
      WHERE id IN (
        SELECT id FROM jobs
         WHERE kind = ANY($1) AND run_at <= $5
           AND (state = 'pending' OR (state = 'running' AND locked_until < $5))
         ORDER BY run_at
         LIMIT $2
         FOR UPDATE SKIP LOCKED)
     RETURNING id, kind, payload, attempts, max_attempts, run_at`,
    [o.kinds, o.limit, o.workerId, new Date(o.now.getTime() + o.leaseMs), o.now],
  );
  return r.rows;
}

/** Marks a job done; only the worker holding the lease may (a late finisher after takeover must not). */
export async function completeJob(db: Queryable, id: string, workerId: string, now: Date): Promise<void> {
  await db.query(
    `UPDATE jobs SET state = 'done', locked_by = NULL, locked_until = NULL, updated_at = $3 WHERE id = $1 AND locked_by = $2`,
    [id, workerId, now],
  );
}

export async function retryJob(db: Queryable, id: string, workerId: string, runAt: Date, error: string, now: Date): Promise<void> {
  await db.query(
    `UPDATE jobs SET state = 'pending', run_at = $3, last_error = $4, locked_by = NULL, locked_until = NULL, updated_at = $5
      WHERE id = $1 AND locked_by = $2`,
    [id, workerId, runAt, error.slice(0, 2000), now],
  );
}

export async function failJob(db: Queryable, id: string, workerId: string, error: string, now: Date): Promise<void> {
  await db.query(
    `UPDATE jobs SET state = 'failed', last_error = $3, locked_by = NULL, locked_until = NULL, updated_at = $4
      WHERE id = $1 AND locked_by = $2`,
    [id, workerId, error.slice(0, 2000), now],
  );
}

/** Exponential backoff with full jitter, capped: attempt 1 -> ~1 s, 2 -> ~2 s, ... up to `capMs`. */
export function backoffMs(attempt: number, baseMs = 1_000, capMs = 300_000, random = Math.random): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * Pending jobs of `kind` (whose payload has `flag` set, when given) run now, oldest first (their run_at becomes
 * their creation time): what waited out an authority's outage on backoff goes as soon as it is back.
 */
export async function bringForward(db: Queryable, kind: string, flag: string | null, now: Date): Promise<number> {
  const r = await db.query(
    `UPDATE jobs SET run_at = created_at, updated_at = $3
      WHERE kind = $1 AND state = 'pending' AND ($2::text IS NULL OR (payload->>$2)::boolean IS TRUE) AND run_at > $3`,
    [kind, flag, now],
  );
  return r.rowCount;
}

/** A long job renews its lease while it advances (only the worker holding it may); false: it was taken over. */
export async function extendLease(db: Queryable, id: string, workerId: string, until: Date): Promise<boolean> {
  const r = await db.query(`UPDATE jobs SET locked_until = $3 WHERE id = $1 AND locked_by = $2 AND state = 'running'`, [id, workerId, until]);
  return r.rowCount > 0;
}
