// Runs normalize-logo.ts on worker threads (no image may hold the event loop or exhaust
// the process): at most LOGO_WORKERS threads, each with a heap limit, a time limit per logo (a thread
// past it is terminated), LOGO_QUEUE logos waiting at most (beyond: LogoBusy). Threads are started
// on demand and ended after a while unused; they never keep the process alive.
import { siblingWorker, ThreadPool } from '../../kernel/thread-pool.js';
import { LOGO_QUEUE, LOGO_WORK_TIMEOUT_MS, LOGO_WORKER_HEAP_MB, LOGO_WORKERS } from './logo-limits.js';
import type { LogoWorkerReply } from './logo-worker.js';
import type { LogoImage } from './normalize-logo.js';

export type LogoOutcome = { ok: true; logo: LogoImage } | { ok: false; problem: string };

/** Too many logos are being processed right now; the caller answers 503 and asks for a retry. */
export class LogoBusy extends Error {
  constructor() {
    super('too many logos are being processed right now');
    this.name = 'LogoBusy';
  }
}

const pool = new ThreadPool({
  start: () => siblingWorker(import.meta.url, 'logo-worker', { resourceLimits: { maxOldGenerationSizeMb: LOGO_WORKER_HEAP_MB, maxYoungGenerationSizeMb: 16 } }),
  size: LOGO_WORKERS,
  queue: LOGO_QUEUE,
  busy: () => new LogoBusy(),
});

/**
 * The logo in normal form, or the problem that keeps it off the DANFE (worded after "danfeLogo").
 * The worker catches every error of the decoders itself; what the pool reports besides its answer
 * is the thread out of its heap or past its time (the image's fault: a refusal); a thread that
 * failed to start is ours (the promise rejects: a 500).
 */
export async function normalizeLogoOffThread(bytes: Buffer): Promise<LogoOutcome> {
  const outcome = await pool.run<LogoWorkerReply>(new Uint8Array(bytes), { timeoutMs: LOGO_WORK_TIMEOUT_MS, label: 'logo' });
  if (outcome.kind === 'out-of-memory') return { ok: false, problem: `needs more than ${LOGO_WORKER_HEAP_MB} MB to decode; save it again as a plain PNG or baseline JPEG` };
  if (outcome.kind === 'timeout') return { ok: false, problem: `took more than ${LOGO_WORK_TIMEOUT_MS / 1000} s to decode; save it again as a plain PNG or baseline JPEG` };
  const m = outcome.reply;
  return m.ok ? { ok: true, logo: { type: m.type, bytes: Buffer.from(m.bytes), width: m.width, height: m.height } } : { ok: false, problem: m.problem };
}
