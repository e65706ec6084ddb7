// Opens uploaded PKCS#12 files in worker threads with a time limit. The
// iteration caps (pfx-limits.ts) bound the work a file may ask for, but even an allowed file costs
// up to seconds of pure-JS key derivation: that must never hold the event loop that answers every
// tenant. A tiny pool (MAX_WORKERS threads, reused, idle ones unref'd) keeps uploads cheap; a file
// that outlives the time limit has its thread terminated and is refused.
import { createPrivateKey } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { CertificateError } from './certificate-error.js';
import type { ParsedCertificate } from './pfx.js';
import type { PfxJob, PfxReply } from './pfx-worker.js';

/** Longest a file may take to open; real A1 files take well under a second, even on a loaded host. */
export const PFX_OPEN_TIME_LIMIT_MS = 10_000;
/** Threads opening files at once; uploads are rare and each may use a core for seconds. */
const MAX_WORKERS = 2;
/** Uploads waiting for a thread; beyond this the gateway is busy (bounded memory: 64 KiB each). */
const MAX_WAITING = 32;
/** Memory one thread may use: a 64 KiB file needs a few MB; a runaway parse dies alone. */
const WORKER_HEAP_MB = 128;

/** Too many uploads are being opened at once; the caller should retry shortly. */
export class PfxOpenerBusyError extends Error {
  override readonly name = 'PfxOpenerBusyError';
}

// The worker's code is TypeScript under vitest/tsx (src/) and JavaScript once built (dist/): the
// thread loads tsx's ESM hooks itself in the first case, since Node 20 does not pass them to workers.
const BOOT = `
const { workerData } = require('node:worker_threads');
(async () => {
  if (workerData.tsx) (await import(workerData.tsx)).register();
  await import(workerData.entry);
})();
`;

function workerData(): { entry: string; tsx: string | null } {
  const source = import.meta.url.endsWith('.ts');
  const entry = new URL(`./pfx-worker.${source ? 'ts' : 'js'}`, import.meta.url).href;
  return { entry, tsx: source ? tsxEsmApi() : null };
}

/** tsx's ESM register API (its CommonJS build points at a file it does not ship, so not require.resolve). */
function tsxEsmApi(): string {
  const require = createRequire(import.meta.url);
  const pkg = require('tsx/package.json') as { exports: Record<string, { import: { default: string } }> };
  return pathToFileURL(join(dirname(require.resolve('tsx/package.json')), pkg.exports['./esm/api']!.import.default)).href;
}

class Thread {
  readonly worker: Worker;
  readonly ready: Promise<void>;
  dead = false;
  private nextId = 1;

  constructor() {
    this.worker = new Worker(BOOT, { eval: true, workerData: workerData(), resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    this.worker.on('exit', () => (this.dead = true));
    this.ready = new Promise<void>((resolve, reject) => {
      const onMessage = (m: { ready?: boolean }) => {
        if (m.ready) done(null);
      };
      const onError = (err: Error) => done(err);
      const onExit = (code: number) => done(new Error(`the certificate worker stopped while starting (exit ${code})`));
      const done = (err: Error | null) => {
        this.worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        if (err) {
          this.dead = true;
          reject(err);
        } else resolve();
      };
      this.worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    });
    // A failed start is reported to the job waiting for it; nobody else awaits `ready`.
    this.ready.catch(() => undefined);
  }

  /** One file; the thread is terminated if it takes longer than `limitMs`. */
  async open(pfx: Buffer, password: string, limitMs: number): Promise<PfxReply> {
    await this.ready;
    const id = this.nextId++;
    return new Promise<PfxReply>((resolve, reject) => {
      // A watchdog on real elapsed time (not the business clock): it protects the process.
      const timer = setTimeout(() => {
        finish();
        this.kill();
        reject(new CertificateError('too_slow', `The certificate file took longer than ${limitMs / 1000} s to open; certificate files from ICP-Brasil open in well under a second. Export it again with the usual settings.`));
      }, limitMs);
      const onMessage = (reply: PfxReply) => {
        if (reply.id !== id) return;
        finish();
        resolve(reply);
      };
      const onError = (err: Error & { code?: string }) => {
        finish();
        this.kill();
        reject(
          err.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new CertificateError('too_costly', `Opening the certificate file needed more than ${WORKER_HEAP_MB} MB of memory; certificate files need a few.`)
            : err,
        );
      };
      const onExit = (code: number) => onError(new Error(`the certificate worker stopped (exit ${code})`));
      const finish = () => {
        clearTimeout(timer);
        this.worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        this.worker.unref();
      };
      this.worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      this.worker.ref(); // the answer is awaited: keep the process alive for it
      this.worker.postMessage({ id, pfx, password } satisfies PfxJob);
    });
  }

  kill(): void {
    this.dead = true;
    void this.worker.terminate();
  }
}

const idle: Thread[] = [];
const waiting: Array<() => void> = [];
let live = 0;

async function acquire(): Promise<Thread> {
  for (;;) {
    const reused = idle.pop();
    if (reused && !reused.dead) return reused;
    if (reused) {
      live--;
      continue;
    }
    if (live < MAX_WORKERS) {
      live++;
      return new Thread();
    }
    if (waiting.length >= MAX_WAITING) throw new PfxOpenerBusyError('too many certificate files are being opened');
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
}

function release(thread: Thread): void {
  if (thread.dead) live--;
  else idle.push(thread);
  waiting.shift()?.();
}

/**
 * parsePfx in a worker thread: the same result and the same CertificateErrors, plus 'too_slow'
 * when the file takes longer than the time limit. Never blocks the caller's event loop.
 */
export async function openPfx(pfx: Buffer, password: string, opts: { timeLimitMs?: number } = {}): Promise<ParsedCertificate> {
  const thread = await acquire();
  let reply: PfxReply;
  try {
    reply = await thread.open(pfx, password, opts.timeLimitMs ?? PFX_OPEN_TIME_LIMIT_MS);
  } finally {
    release(thread);
  }
  if (!reply.ok) {
    if (reply.reason) throw new CertificateError(reply.reason, reply.message);
    throw new Error(`opening the certificate failed: ${reply.message}`);
  }
  const { certificateDer, ...rest } = reply.certificate;
  // Structured clone turns Buffers into Uint8Arrays.
  return { ...rest, certificateDer: Buffer.from(certificateDer), privateKey: createPrivateKey(rest.privateKeyPem) };
}

/** How many threads exist and how many uploads wait (tests, diagnostics). */
export function pfxOpenerState(): { threads: number; idle: number; waiting: number } {
  return { threads: live, idle: idle.length, waiting: waiting.length };
}
