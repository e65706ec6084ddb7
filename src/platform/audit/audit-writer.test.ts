import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Queryable } from '../../infra/storage/db.js';
import type { AuditEntry } from '../../infra/storage/repositories/audit-repository.js';
import { AuditWriter } from './audit-writer.js';

/** Counts the INSERTs and the rows each carried (the first column array is the ids). */
function recordingDb(): Queryable & { writes: number[] } {
  const writes: number[] = [];
  return {
    writes,
    async query(_sql: string, params?: readonly unknown[]) {
      writes.push((params?.[0] as unknown[]).length);
      return { rows: [], rowCount: 0 };
    },
  } as Queryable & { writes: number[] };
}

const entry = (n: number): AuditEntry => ({
  id: `aud_${n}`, account_id: 'acc_1', actor: 'app_1', action: 'nfce.create', target: null, method: 'POST', route: '/v1/nfce',
  status_code: 202, ip: '127.0.0.1', request_id: `req_${n}`, created_at: new Date(),
});

// The linger and the retry delay are timers: the tests move fake time, so a busy machine cannot
// stretch "5 ms later" past the 40 ms linger.
afterEach(() => {
  vi.useRealTimers();
});

describe('AuditWriter', () => {
  it('without a linger writes at once, and entries pushed meanwhile share the next INSERT', async () => {
    const db = recordingDb();
    const w = new AuditWriter(db);
    for (let i = 0; i < 5; i++) w.push(entry(i));
    await w.flush();
    expect(db.writes).toEqual([1, 4]);
  });

  it('with a linger, entries arriving within it share one INSERT', async () => {
    vi.useFakeTimers();
    const db = recordingDb();
    const w = new AuditWriter(db, undefined, 40);
    w.push(entry(1));
    await vi.advanceTimersByTimeAsync(5);
    w.push(entry(2));
    await vi.advanceTimersByTimeAsync(34);
    expect(db.writes).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(db.writes).toEqual([2]);
  });

  it('keeps entries when storage fails and tries again later, without spinning', async () => {
    let calls = 0;
    const down: Queryable = {
      async query() {
        calls++;
        throw new Error('connection refused');
      },
    };
    vi.useFakeTimers();
    const errors: unknown[] = [];
    const w = new AuditWriter(down, (e) => errors.push(e));
    w.push(entry(1));
    await w.flush();
    const attempts = calls;
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toBe(attempts); // no retry until the retry delay (1 s) has passed
    expect(errors.length).toBe(attempts);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(attempts + 1); // then one, not a loop
    expect(errors.length).toBe(attempts + 1);
    vi.useRealTimers();
    // The entry is still there: the next write carries it.
    const db = recordingDb();
    (w as unknown as { db: Queryable }).db = db;
    w.push(entry(2));
    await w.flush();
    expect(db.writes).toEqual([2]);
  });

  it('a full batch does not wait for the linger, and flush() writes what lingers at once', async () => {
    const db = recordingDb();
    const w = new AuditWriter(db, undefined, 10_000);
    for (let i = 0; i < 100; i++) w.push(entry(i));
    await new Promise((r) => setImmediate(r)); // no timer: the write started at once
    expect(db.writes).toEqual([100]);
    w.push(entry(100));
    await w.flush();
    expect(db.writes).toEqual([100, 1]);
  });
});
