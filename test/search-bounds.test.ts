import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../src/platform/storage/db.js';
import { createTestApp, type TestApp } from './support/app.js';

// Issue 28 item 10: on the public sandbox's embedded database (PGlite, whose statements run on the
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

  it('20 phrase searches at once: at most 2 run, the others are answered 429 with Retry-After at once; another account searches meanwhile', async () => {
    const a = await t.newAccount('Search burst');
    const b = await t.newAccount('Search neighbour');
    const [burst, neighbour] = await Promise.all([
      Promise.all(Array.from({ length: 20 }, () => search(a.auth, '"pao frances" "cafe torrado"'))),
      search(b.auth, '"pao frances"'),
    ]);
    const statuses = burst.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(2);
    expect(statuses.filter((s) => s === 429).length).toBe(20 - statuses.filter((s) => s === 200).length);
    for (const r of burst.filter((x) => x.statusCode === 429)) {
      expect(r.json()).toMatchObject({ error: 'rate_limited' });
      expect(r.headers['retry-after']).toBe('1');
    }
    expect(neighbour.statusCode).toBe(200);
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
