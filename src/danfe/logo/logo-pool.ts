// Runs normalize-logo.ts on worker threads (issue 12: no image may hold the event loop or exhaust
// the process): at most LOGO_WORKERS threads, each with a heap limit, a time limit per logo (a thread
// past it is terminated), LOGO_QUEUE logos waiting at most (beyond: LogoBusy). Threads are started
// on demand and ended after a while unused; they never keep the process alive.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
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

const IDLE_MS = 30_000;

// Compiled (dist/*.js), the worker is the sibling .js file. From the TypeScript sources (vitest,
// tsx) it is the .ts file, which a new thread can load only after registering tsx's loader there.
function startWorker(): Worker {
  const options = { resourceLimits: { maxOldGenerationSizeMb: LOGO_WORKER_HEAP_MB, maxYoungGenerationSizeMb: 16 } };
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./logo-worker.js', import.meta.url), options);
  const tsxApi = join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs');
  const entry = new URL('./logo-worker.ts', import.meta.url).href;
  const code = `import(${JSON.stringify(pathToFileURL(tsxApi).href)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(code, { ...options, eval: true, execArgv: [] });
}

interface Thread {
  worker: Worker;
  exited: boolean;
  idleTimer?: NodeJS.Timeout;
}

const idle: Thread[] = [];
let threads = 0;
const waiting: ((t: Thread) => void)[] = [];

async function acquire(): Promise<Thread> {
  const ready = idle.pop();
  if (ready) {
    clearTimeout(ready.idleTimer);
    return ready;
  }
  if (threads < LOGO_WORKERS) {
    threads++;
    const t: Thread = { worker: startWorker(), exited: false };
    t.worker.unref();
    t.worker.once('exit', () => {
      t.exited = true;
      threads--;
      const at = idle.indexOf(t);
      if (at >= 0) idle.splice(at, 1);
    });
    return t;
  }
  if (waiting.length >= LOGO_QUEUE) throw new LogoBusy();
  return new Promise((resolve) => waiting.push(resolve));
}

function release(t: Thread, healthy: boolean): void {
  if (!healthy) {
    // Its replacement starts on demand; whoever waits gets a fresh thread now.
    const next = waiting.shift();
    // Once this thread is gone a slot is free, so acquire() starts a new thread at once.
    if (next) {
      if (t.exited) void acquire().then(next);
      else t.worker.once('exit', () => void acquire().then(next));
    }
    void t.worker.terminate();
    return;
  }
  const next = waiting.shift();
  if (next) return next(t);
  t.idleTimer = setTimeout(() => void t.worker.terminate(), IDLE_MS).unref();
  idle.push(t);
}

function runOn(t: Thread, bytes: Buffer): Promise<{ outcome: LogoOutcome; healthy: boolean }> {
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
  const t = await acquire();
  let healthy = false;
  try {
    const { outcome, healthy: ok } = await runOn(t, bytes);
    healthy = ok;
    return outcome;
  } finally {
    release(t, healthy);
  }
}
