// A small pool of worker threads for CPU-bound work that must stay off the event loop (logo
// decoding, DANFE NF-e rendering): at most `size` threads, started on demand and ended after
// `idleMs` unused, never keeping the process alive; at most `queue` callers wait for a thread,
// beyond that acquire() throws `busy()`. A thread released as unhealthy (timed out, out of heap)
// is terminated and whoever waits gets a fresh one.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

export interface PoolThread {
  worker: Worker;
  exited: boolean;
  /** Told to end at its idle time: no longer counted against `size`, its 'exit' not awaited. */
  retired?: boolean;
  idleTimer?: NodeJS.Timeout;
}

export interface ThreadPoolOptions {
  start: () => Worker;
  size: number;
  queue: number;
  busy: () => Error;
  idleMs?: number;
}

/**
 * The worker entry `name` beside the module at `moduleUrl`. Compiled (dist/*.js), it is the sibling
 * .js file. From the TypeScript sources (vitest, tsx) it is the .ts file, which a new thread can load
 * only after registering tsx's loader there.
 */
export function siblingWorker(moduleUrl: string, name: string, options: WorkerOptions): Worker {
  if (!moduleUrl.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, moduleUrl), options);
  const tsxApi = join(dirname(createRequire(moduleUrl).resolve('tsx/package.json')), 'dist/esm/api/index.mjs');
  const entry = new URL(`./${name}.ts`, moduleUrl).href;
  const code = `import(${JSON.stringify(pathToFileURL(tsxApi).href)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(code, { ...options, eval: true, execArgv: [] });
}

/** How one job on a thread ended: its reply, the thread out of its heap, or the time limit passed. */
export type ThreadOutcome<R> = { kind: 'reply'; reply: R } | { kind: 'out-of-memory' } | { kind: 'timeout' };

export class ThreadPool {
  private readonly idle: PoolThread[] = [];
  private threads = 0;
  private readonly waiting: ((t: PoolThread) => void)[] = [];

  constructor(private readonly o: ThreadPoolOptions) {}

  async acquire(): Promise<PoolThread> {
    // A thread whose idle time ran out leaves `idle` as it is told to end, and one that died while idle
    // (its 'exit' already seen) is skipped: neither may take a job, whose caller would get "exited
    // without an answer" for a thread the pool itself ended.
    let ready = this.idle.pop();
    while (ready?.exited) ready = this.idle.pop();
    if (ready) {
      clearTimeout(ready.idleTimer);
      return ready;
    }
    if (this.threads < this.o.size) {
      this.threads++;
      const t: PoolThread = { worker: this.o.start(), exited: false };
      t.worker.unref();
      t.worker.once('exit', () => {
        t.exited = true;
        if (!t.retired) this.threads--;
        const at = this.idle.indexOf(t);
        if (at >= 0) this.idle.splice(at, 1);
      });
      return t;
    }
    if (this.waiting.length >= this.o.queue) throw this.o.busy();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /**
   * One job on a thread of the pool: `message` posted, the first reply taken. A thread that ran out of
   * its heap or past `timeoutMs` is replaced (the caller decides what the job's answer is); another
   * failure of the thread (it could not start, it exited without an answer) rejects.
   */
  async run<R>(message: unknown, o: { timeoutMs: number; label: string }): Promise<ThreadOutcome<R>> {
    const t = await this.acquire();
    let healthy = false;
    try {
      const outcome = await exchange<R>(t.worker, message, o);
      healthy = outcome.kind === 'reply';
      return outcome;
    } finally {
      this.release(t, healthy);
    }
  }

  release(t: PoolThread, healthy: boolean): void {
    if (!healthy) {
      // Its replacement starts on demand; whoever waits gets a fresh thread now.
      const next = this.waiting.shift();
      // Once this thread is gone a slot is free, so acquire() starts a new thread at once.
      if (next) {
        if (t.exited) void this.acquire().then(next);
        else t.worker.once('exit', () => void this.acquire().then(next));
      }
      void t.worker.terminate();
      return;
    }
    const next = this.waiting.shift();
    if (next) return next(t);
    t.idleTimer = setTimeout(() => {
      const at = this.idle.indexOf(t);
      if (at >= 0) this.idle.splice(at, 1);
      t.retired = true;
      this.threads--;
      void t.worker.terminate();
    }, this.o.idleMs ?? 30_000).unref();
    this.idle.push(t);
  }
}

function exchange<R>(worker: Worker, message: unknown, o: { timeoutMs: number; label: string }): Promise<ThreadOutcome<R>> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onMessage = (reply: R) => {
      done();
      resolve({ kind: 'reply', reply });
    };
    const onError = (err: Error & { code?: string }) => {
      done();
      if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') resolve({ kind: 'out-of-memory' });
      else reject(new Error(`${o.label} worker failed: ${err.message}`));
    };
    const onExit = (code: number) => {
      done();
      reject(new Error(`${o.label} worker exited with code ${code} without an answer`));
    };
    const timer = setTimeout(() => {
      done();
      resolve({ kind: 'timeout' });
    }, o.timeoutMs);
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage(message);
  });
}
