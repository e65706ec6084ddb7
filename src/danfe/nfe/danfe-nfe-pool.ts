// Runs renderDanfeNfe on worker threads so a 990-item note never holds the event loop: at most
// DANFE_NFE_WORKERS threads, each with a heap limit and a time limit per rendering (a thread past
// it is terminated), DANFE_NFE_QUEUE renderings waiting at most (beyond: DanfeNfeBusy). Threads
// start on demand, end after a while unused and never keep the process alive (as logo-pool.ts).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { DanfeInputError } from '../danfe-input.js';
import type { DanfeNfeExtras } from './danfe-nfe-from-xml.js';
import { DANFE_NFE_LIMITS, DANFE_NFE_QUEUE, DANFE_NFE_TIMEOUT_MS, DANFE_NFE_WORKER_HEAP_MB, DANFE_NFE_WORKERS } from './danfe-nfe-limits.js';
import type { DanfeNfeJob, DanfeNfeReply } from './danfe-nfe-worker.js';

/** Too many DANFEs are being rendered right now; the caller answers 503 and asks for a retry. */
export class DanfeNfeBusy extends Error {
  constructor() {
    super('too many DANFE NF-e are being rendered right now');
    this.name = 'DanfeNfeBusy';
  }
}

const IDLE_MS = 30_000;

function startWorker(): Worker {
  const options = { resourceLimits: { maxOldGenerationSizeMb: DANFE_NFE_WORKER_HEAP_MB, maxYoungGenerationSizeMb: 32 } };
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./danfe-nfe-worker.js', import.meta.url), options);
  // From the TypeScript sources (vitest, tsx) the thread registers tsx's loader first.
  const tsxApi = join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs');
  const entry = new URL('./danfe-nfe-worker.ts', import.meta.url).href;
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
  if (threads < DANFE_NFE_WORKERS) {
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
  if (waiting.length >= DANFE_NFE_QUEUE) throw new DanfeNfeBusy();
  return new Promise((resolve) => waiting.push(resolve));
}

function release(t: Thread, healthy: boolean): void {
  const next = waiting.shift();
  if (!healthy) {
    if (next) {
      if (t.exited) void acquire().then(next);
      else t.worker.once('exit', () => void acquire().then(next));
    }
    void t.worker.terminate();
    return;
  }
  if (next) return next(t);
  t.idleTimer = setTimeout(() => void t.worker.terminate(), IDLE_MS).unref();
  idle.push(t);
}

function runOn(t: Thread, job: DanfeNfeJob): Promise<{ reply: DanfeNfeReply; healthy: boolean }> {
  return new Promise((resolve, reject) => {
    const { worker } = t;
    const done = () => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onMessage = (reply: DanfeNfeReply) => {
      done();
      resolve({ reply, healthy: true });
    };
    const onError = (err: Error & { code?: string }) => {
      done();
      if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        resolve({ reply: { ok: false, input: true, message: `the note needs more than ${DANFE_NFE_WORKER_HEAP_MB} MB to render` }, healthy: false });
      } else reject(new Error(`DANFE NF-e worker failed: ${err.message}`));
    };
    const onExit = (code: number) => {
      done();
      reject(new Error(`DANFE NF-e worker exited with code ${code} without an answer`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`the DANFE NF-e took more than ${DANFE_NFE_TIMEOUT_MS / 1000} s to render; rendering abandoned`));
      void worker.terminate();
    }, DANFE_NFE_TIMEOUT_MS);
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage(job);
  });
}

/**
 * renderDanfeNfe off the event loop. Throws DanfeInputError for a note that cannot make a DANFE
 * (not model 55, not authorised, beyond the limits, bad logo), DanfeNfeBusy under a flood.
 */
export async function renderDanfeNfeOffThread(nfeProcXml: string, extras: DanfeNfeExtras = {}): Promise<Buffer> {
  // Refused before it is copied to a thread.
  if (Buffer.byteLength(nfeProcXml, 'utf8') > DANFE_NFE_LIMITS.xmlBytes) throw new DanfeInputError(`the XML has more than ${DANFE_NFE_LIMITS.xmlBytes} bytes`);
  const { logo, ...settings } = extras.settings ?? {};
  const job: DanfeNfeJob = {
    xml: nfeProcXml,
    ...(extras.settings ? { settings: { ...settings, ...(logo ? { logo: new Uint8Array(logo) } : {}) } } : {}),
    ...(extras.cancellation ? { cancellation: extras.cancellation } : {}),
  };
  const t = await acquire();
  let healthy = false;
  try {
    const { reply, healthy: ok } = await runOn(t, job);
    healthy = ok;
    if (reply.ok) return Buffer.from(reply.pdf.buffer, reply.pdf.byteOffset, reply.pdf.byteLength);
    if (reply.input) throw new DanfeInputError(reply.message);
    throw new Error(`DANFE NF-e rendering failed: ${reply.message}`);
  } finally {
    release(t, healthy);
  }
}
