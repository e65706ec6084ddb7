import { hostname } from 'node:os';
import type { Clock } from '../../kernel/clock.js';
import type { Db } from '../../kernel/db-handle.js';
import { randomBase62 } from '../../kernel/ids.js';
import { backoffMs, claimJobs, completeJob, failJob, JobPayloadError, retryJob, type Job } from './queue.js';

/** What a handler tells the runner when the work is not finished but nothing is wrong (e.g. lot in process). */
export class RetryLater extends Error {
  constructor(readonly delayMs: number, reason: string) {
    super(reason);
  }
}

/**
 * A handler returns this when it marked its job done itself, in the same statement as its work, and
 * queued no follow-up work (or woke the runner for it).
 */
export const JOB_COMPLETED = 'completed';

export type JobHandler = (job: Job, ctx: { workerId: string }) => Promise<void | typeof JOB_COMPLETED>;

export interface RunnerOptions {
  db: Db;
  clock: Clock;
  handlers: Record<string, JobHandler>;
  /** Jobs run at once by this runner. */
  concurrency?: number;
  leaseMs?: number;
  pollMs?: number;
  onError?: (job: Job, err: unknown) => void;
}

/**
 * Claims due jobs and runs them. Idle runners poll; `poke()` wakes one at once (same process), so a
 * sale enqueued here starts within milliseconds. A crash leaves leases that expire and are reclaimed.
 */
export class JobRunner {
  readonly workerId = `${hostname()}:${process.pid}:${randomBase62(6)}`;
  private running = 0;
  private stopped = true;
  private timer: NodeJS.Timeout | undefined;
  private idle: Array<() => void> = [];
  private filling = false;
  /** A poke came while a claim was under way: the claim may not have seen the new job. */
  private pokedWhileFilling = false;
  /** The last claim found fewer due jobs than it had room for: the queue was empty then. */
  private drained = false;
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private readonly pollMs: number;

  constructor(private readonly o: RunnerOptions) {
    this.concurrency = o.concurrency ?? 16;
    this.leaseMs = o.leaseMs ?? 60_000;
    this.pollMs = o.pollMs ?? 250;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.poke();
  }

  /** Look for work now. */
  poke(): void {
    if (this.stopped) return;
    if (this.filling) {
      this.pokedWhileFilling = true;
      return;
    }
    this.filling = true;
    this.pokedWhileFilling = false;
    void this.fill().finally(() => {
      this.filling = false;
      if (this.pokedWhileFilling) this.poke();
      else this.schedule();
    });
  }

  /** Stops claiming; resolves when the jobs in flight have finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.running > 0) await new Promise<void>((resolve) => this.idle.push(resolve));
  }

  private schedule(): void {
    clearTimeout(this.timer);
    if (!this.stopped) this.timer = setTimeout(() => this.poke(), this.pollMs);
  }

  private async fill(): Promise<void> {
    const kinds = Object.keys(this.o.handlers);
    while (!this.stopped && this.running < this.concurrency) {
      this.pokedWhileFilling = false;
      const limit = this.concurrency - this.running;
      let jobs: Job[];
      try {
        jobs = await claimJobs(this.o.db, {
          kinds,
          limit,
          leaseMs: this.leaseMs,
          workerId: this.workerId,
          now: this.o.clock.now(),
        });
      } catch {
        return; // storage hiccup: the next poll tries again
      }
      for (const job of jobs) void this.run(job);
      // Fewer than asked for: nothing else was due, so asking again now would find nothing.
      this.drained = jobs.length < limit;
      if (this.drained) return;
    }
  }

  private async run(job: Job): Promise<void> {
    this.running++;
    const { db, clock } = this.o;
    // A handler that closed its job itself also says it queued nothing new: unless the last claim
    // was full, there is no reason to ask the queue again (the poll and wakeWorker cover new work).
    let lookAgain = true;
    try {
      const outcome = await this.o.handlers[job.kind]!(job, { workerId: this.workerId });
      if (outcome === JOB_COMPLETED) lookAgain = !this.drained;
      else await completeJob(db, job.id, this.workerId, clock.now());
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      try {
        if (err instanceof JobPayloadError) {
          // The payload cannot become right by waiting: the job fails now, with the reason.
          this.o.onError?.(job, err);
          await failJob(db, job.id, this.workerId, message, clock.now());
        } else if (err instanceof RetryLater) {
          await retryJob(db, job.id, this.workerId, new Date(clock.now().getTime() + err.delayMs), message, clock.now());
        } else {
          this.o.onError?.(job, err);
          if (job.attempts >= job.max_attempts) await failJob(db, job.id, this.workerId, message, clock.now());
          else await retryJob(db, job.id, this.workerId, new Date(clock.now().getTime() + backoffMs(job.attempts)), message, clock.now());
        }
      } catch {
        // Could not record the outcome: the lease runs out and the job is claimed again.
      }
    } finally {
      this.running--;
      if (this.running === 0) this.idle.splice(0).forEach((r) => r());
      if (!this.stopped && lookAgain) this.poke();
    }
  }
}
