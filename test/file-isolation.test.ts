import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';
import { resetWorkerForNextFile } from './support/file-isolation.js';
import { readyIssuer } from './support/nfce-flow.js';

// What the harness does between two test files of a worker (test/support/setup-each-file.ts): the
// next file finds none of this one's records and no outage it started.
describe('each test file starts from an empty database and a simulator with no outage', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.runtime.close();
  });

  it('accounts, issuers, notes and jobs of the file before are gone; the sandbox seed is back; outages ended', async () => {
    const { auth, accountId } = await t.newAccount();
    await readyIssuer(t, auth);
    t.simulator.startOutage({ mode: 'unavailable', seconds: 600 });
    const count = async (sql: string) => Number((await t.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${sql}`)).rows[0]!.n);
    expect(await count(`accounts WHERE id = '${accountId}'`)).toBe(1);
    expect(await count('issuers')).toBeGreaterThan(0);

    expect(await resetWorkerForNextFile()).toBe(true);

    expect(await count(`accounts WHERE id = '${accountId}'`)).toBe(0);
    expect(await count('issuers')).toBe(0);
    expect(await count('jobs')).toBe(0);
    expect(await count('events')).toBe(0);
    // The sandbox's seed, which storage tests of a bare issuer use (test/support/db.ts insertBareIssuer).
    expect(await count(`accounts WHERE id = 'acc_sandbox'`)).toBe(1);
    expect(await count('technical_responsibles')).toBe(1);
    expect(t.simulator.outages()).toEqual([]);
  });
});
