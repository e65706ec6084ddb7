import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../src/infra/storage/db.js';
import { createTestApp, type TestApp } from './support/app.js';
import { eventually } from './support/webhook-receiver.js';

// On the public sandbox's embedded database (PGlite, whose statements run on the
// event loop's thread) 20 phrase searches of one account took /healthz to 1.9 s. What one account's
// searches may take of the process is bounded, and the embedded database lets the event loop turn
// between statements.
describe("what one account's searches cost the shared process", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  }, 60_000);
  afterAll(async () => {
    await t.runtime.close();
  });

  const search = (auth: { authorization: string }, q: string) => t.app.inject({ method: 'GET', url: `/v1/search?q=${encodeURIComponent(q)}`, headers: auth });

  it('20 phrase searches at once: 2 run, the other 18 are answered 429 with Retry-After at once; another account searches meanwhile', async () => {
    const a = await t.newAccount('Search burst');
    const b = await t.newAccount('Search neighbour');
    // Every search is held at its first statement until the test lets it go, so "at once" does not
    // depend on how fast a search is on this database: what runs is what reached the database.
    const db = t.ctx.db;
    const query = db.query;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let reached = 0;
    db.query = (async (sql: string, params?: readonly unknown[]) => {
      if (sql.includes('WITH corrected AS')) {
        reached += 1;
        await held;
      }
      return query.call(db, sql, params);
    }) as typeof db.query;
    try {
      const answered: number[] = [];
      const burst = Array.from({ length: 20 }, () => search(a.auth, '"pao frances" "cafe torrado"').then((r) => (answered.push(r.statusCode), r)));
      const neighbour = search(b.auth, '"pao frances"');
      await eventually(async () => answered.length === 18 && reached === 3, 20_000, () => `18 answers and 3 searches in the database (${answered.length}, ${reached})`);
      expect(answered.every((s) => s === 429)).toBe(true);
      release();
      const all = await Promise.all(burst);
      expect(all.filter((r) => r.statusCode === 200)).toHaveLength(2);
      for (const r of all.filter((x) => x.statusCode === 429)) {
        expect(r.json()).toMatchObject({ error: 'rate_limited' });
        expect(r.headers['retry-after']).toBe('1');
      }
      expect((await neighbour).statusCode).toBe(200);
    } finally {
      release();
      db.query = query;
    }
    // Not a lockout: once they answered, the account searches again.
    expect((await search(a.auth, '"pao frances"')).statusCode).toBe(200);
  });
});

describe('the embedded database (PGlite) lets the event loop turn between statements', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openDb({});
  }, 60_000);
  afterAll(async () => {
    await db.close();
  });

  it('a timer due while 30 statements wait is run before the last one, not after all of them', async () => {
    expect(db.kind).toBe('pglite');
    let done = 0;
    let doneWhenTimerRan = -1;
    const statements = Array.from({ length: 30 }, () => db.query('SELECT count(*) FROM generate_series(1, 20000)').then(() => (done += 1)));
    setTimeout(() => (doneWhenTimerRan = done), 0);
    await Promise.all(statements);
    expect(doneWhenTimerRan).toBeGreaterThanOrEqual(0);
    expect(doneWhenTimerRan).toBeLessThan(30);
  });
});
