// Runs normalize-logo.ts on worker threads (issue 12: no image may hold the event loop or exhaust
// the process): at most LOGO_WORKERS threads, each with a heap limit, a time limit per logo (a thread
// past it is terminated), LOGO_QUEUE logos waiting at most (beyond: LogoBusy). Threads are started
// on demand and ended after a while unused; they never keep the process alive.
import { siblingWorker, ThreadPool, type PoolThread } from '../../kernel/thread-pool.js';
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

function runOn(t: PoolThread, bytes: Buffer): Promise<{ outcome: LogoOutcome; healthy: boolean }> {
  return new Promise((resolve, reject) => {
    const { worker } = t;
    const done = () => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onMessage = (m: LogoWorkerReply) => {
      done();
      const outcome: LogoOutcome = m.ok ? { ok: true, logo: { type: m.type, bytes: Buffer.from(m.bytes), width: m.width, height: m.height } } : { ok: false, problem: m.problem };
      resolve({ outcome, healthy: true });
    };
    // The worker catches every error of the decoders itself; what arrives here is the thread out
    // of its heap (the image's fault: a refusal) or the thread failing to start (ours: a 500).
    const onError = (err: Error & { code?: string }) => {
      done();
      if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        resolve({ outcome: { ok: false, problem: `needs more than ${LOGO_WORKER_HEAP_MB} MB to decode; save it again as a plain PNG or baseline JPEG` }, healthy: false });
      } else reject(new Error(`logo worker failed: ${err.message}`));
    };
    const onExit = (code: number) => {
      done();
      reject(new Error(`logo worker exited with code ${code} without an answer`));
    };
    const timer = setTimeout(() => {
      done();
      resolve({ outcome: { ok: false, problem: `took more than ${LOGO_WORK_TIMEOUT_MS / 1000} s to decode; save it again as a plain PNG or baseline JPEG` }, healthy: false });
    }, LOGO_WORK_TIMEOUT_MS);
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage(new Uint8Array(bytes));
  });
}

/** The logo in normal form, or the problem that keeps it off the DANFE (worded after "danfeLogo"). */
export async function normalizeLogoOffThread(bytes: Buffer): Promise<LogoOutcome> {
  const t = await pool.acquire();
  let healthy = false;
  try {
    const { outcome, healthy: ok } = await runOn(t, bytes);
    healthy = ok;
    return outcome;
  } finally {
    pool.release(t, healthy);
  }
}
