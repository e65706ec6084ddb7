import { Worker } from 'node:worker_threads';
import { describe, expect, it, vi } from 'vitest';
import { ThreadPool } from './thread-pool.js';

const ECHO = `require('node:worker_threads').parentPort.on('message', (m) => require('node:worker_threads').parentPort.postMessage(m * 2));`;

class Busy extends Error {}

function pool(size: number, queue: number, idleMs = 30_000) {
  const started: Worker[] = [];
  const p = new ThreadPool({
    start: () => {
      const w = new Worker(ECHO, { eval: true });
      started.push(w);
      return w;
    },
    size,
    queue,
    busy: () => new Busy('busy'),
    idleMs,
  });
  return { p, started };
}

const echo = (w: Worker, n: number) => new Promise<number>((resolve) => {
  w.once('message', resolve);
  w.postMessage(n);
});

describe('ThreadPool', () => {
  it('starts threads on demand up to its size, queues callers up to its limit, refuses beyond', async () => {
    const { p, started } = pool(1, 1);
    const first = await p.acquire();
    expect(await echo(first.worker, 21)).toBe(42);
    const waiting = p.acquire();
    await expect(p.acquire()).rejects.toBeInstanceOf(Busy);
    p.release(first, true);
    const second = await waiting;
    expect(second).toBe(first);
    expect(started).toHaveLength(1);
    p.release(second, false);
    await new Promise((r) => second.worker.once('exit', r));
    expect(second.exited).toBe(true);
  });

  it('an unhealthy thread is ended and whoever waits gets a fresh one', async () => {
    const { p, started } = pool(1, 4);
    const sick = await p.acquire();
    const waiting = p.acquire();
    p.release(sick, false);
    const fresh = await waiting;
    expect(fresh).not.toBe(sick);
    expect(sick.exited).toBe(true);
    expect(started).toHaveLength(2);
    expect(await echo(fresh.worker, 5)).toBe(10);
    p.release(fresh, false);
  });

  it('an idle thread is reused, then ended after idleMs', async () => {
    const { p, started } = pool(2, 0, 50);
    const t = await p.acquire();
    p.release(t, true);
    expect(await p.acquire()).toBe(t);
    p.release(t, true);
    await new Promise((r) => t.worker.once('exit', r));
    const next = await p.acquire();
    expect(next).not.toBe(t);
    expect(started).toHaveLength(2);
    p.release(next, false);
  });

  it('a thread told to end at its idle time is never handed out while it ends (a job there would fail with no answer)', async () => {
    const { p, started } = pool(1, 0, 50);
    const t = await p.acquire();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      p.release(t, true);
      // The idle timer fires: terminate() is called, the 'exit' event comes later.
      vi.advanceTimersByTime(60);
    } finally {
      vi.useRealTimers();
    }
    const outcome = await p.run<number>(4, { timeoutMs: 10_000, label: 'echo' });
    expect(outcome).toEqual({ kind: 'reply', reply: 8 });
    expect(started).toHaveLength(2);
    await new Promise((r) => (t.exited ? r(null) : t.worker.once('exit', r)));
  });
});
