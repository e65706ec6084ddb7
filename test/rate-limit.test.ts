import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { memoryRateLimitStore, type RateLimitStore } from '../src/infra/storage/rate-limit-store.js';
import { openRateLimitRedis, redisRateLimitStore } from '../src/infra/storage/redis-rate-limit-store.js';
import { createTestApp, type TestApp } from './support/app.js';
import { ManualClock } from './support/clock.js';

// The limit is exact over every 60-second window (docs/guides/api.md#contract-limits: 60 per minute), on the
// in-process store and on Redis, and requests that fail authentication are counted per IP first.

const redisUrl = process.env.TEST_REDIS_URL;
const redis = redisUrl ? new Redis(redisUrl, { maxRetriesPerRequest: 1 }) : undefined;
afterAll(() => redis?.disconnect());
// The worker's shared database and simulator start here (seconds under load), not inside a test.
beforeAll(async () => (await createTestApp()).app.close());

// Unique per test: Redis is shared with other engineers' runs.
const prefix = () => `rl-http-${process.pid}-${randomBytes(4).toString('hex')}:`;
const stores: Array<[string, () => RateLimitStore]> = [['in process', () => memoryRateLimitStore()]];
if (redis) stores.push(['redis', () => redisRateLimitStore(redis, prefix())]);

const sandbox = { authorization: 'Bearer sk_sandbox_public' };
let nextIp = 1;
const freshIp = () => `10.77.${(nextIp >> 8) & 255}.${nextIp++ & 255}`;

async function sandboxApp(limit: number, store: RateLimitStore, clock: ManualClock): Promise<TestApp> {
  return createTestApp({ clock, env: { RATE_LIMIT_PER_MINUTE: String(limit) }, options: { rateLimitStore: store } });
}

describe.each(stores)('rate limit over a sliding 60-second window (%s)', (_name, makeStore) => {
  it('no 60-second window accepts more than the limit, whatever the arrival times', async () => {
    const L = 4;
    const clock = new ManualClock('2026-11-21T12:00:00.000Z');
    const t = await sandboxApp(L, makeStore(), clock);
    try {
      // Gaps mix bursts (a few ms), slot-boundary crossings and long pauses.
      const gaps = fc.array(fc.oneof(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 2_500 }), fc.integer({ min: 0, max: 40_000 })), { minLength: 1, maxLength: 40 });
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 0, max: 999 }), gaps, async (offset, steps) => {
          const ip = freshIp();
          clock.set('2026-11-21T12:00:00.000Z');
          clock.advance(offset);
          const accepted: number[] = [];
          for (const gap of steps) {
            clock.advance(gap);
            const now = clock.now().getTime();
            const res = await t.app.inject({ method: 'GET', url: '/v1/ufs', headers: sandbox, remoteAddress: ip });
            expect([200, 429]).toContain(res.statusCode);
            if (res.statusCode === 200) {
              accepted.push(now);
              // Exactness: L+1 accepted requests never fit in one 60-second window.
              if (accepted.length > L) expect(now - accepted[accepted.length - 1 - L]!).toBeGreaterThanOrEqual(60_000);
            } else {
              // ...and a refusal means the window really holds L accepted requests.
              expect(accepted.filter((a) => a > now - 60_000).length).toBe(L);
            }
          }
        }),
        { numRuns: 40 },
      );
    } finally {
      await t.app.close();
    }
  });

  it('a burst on each side of a minute boundary is not let through twice', async () => {
    const L = 10;
    const clock = new ManualClock('2026-11-21T12:00:59.900Z');
    const t = await sandboxApp(L, makeStore(), clock);
    try {
      const ip = freshIp();
      const burst = () => Promise.all(Array.from({ length: L }, () => t.app.inject({ method: 'GET', url: '/v1/ufs', headers: sandbox, remoteAddress: ip })));
      const first = await burst();
      clock.advance(200); // 12:01:00.100, a new fixed window but the same 60-second window
      const second = await burst();
      expect(first.filter((r) => r.statusCode === 200)).toHaveLength(L);
      expect(second.filter((r) => r.statusCode === 200)).toHaveLength(0);
      expect(second.every((r) => r.statusCode === 429)).toBe(true);
    } finally {
      await t.app.close();
    }
  });

  it('Retry-After and X-RateLimit-Reset say exactly when a request is accepted and when the budget is full again', async () => {
    const L = 3;
    const clock = new ManualClock('2026-11-21T12:00:00.000Z');
    const t = await sandboxApp(L, makeStore(), clock);
    try {
      const ip = freshIp();
      const get = () => t.app.inject({ method: 'GET', url: '/v1/ufs', headers: sandbox, remoteAddress: ip });
      clock.advance(5_250);
      const a = await get(); // 12:00:05.250
      expect(a.headers).toMatchObject({ 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': '2', 'x-ratelimit-reset': '60', 'x-ratelimit-window': '60' });
      clock.advance(20_000);
      await get(); // 12:00:25.250
      clock.advance(10_500);
      const c = await get(); // 12:00:35.750
      expect(c.statusCode).toBe(200);
      expect(c.headers['x-ratelimit-remaining']).toBe('0');
      expect(c.headers['x-ratelimit-reset']).toBe('60'); // the last one leaves the window at 12:01:35.750
      clock.advance(1_000);
      const over = await get(); // 12:00:36.750: the first leaves the window at 12:01:05.250, 28.5 s away
      expect(over.statusCode).toBe(429);
      expect(over.json().error).toBe('rate_limited');
      expect(over.headers['retry-after']).toBe('29');
      expect(over.headers['x-ratelimit-remaining']).toBe('0');
      expect(over.headers['x-ratelimit-reset']).toBe('59');
      // Not a second earlier than Retry-After...
      clock.advance(28_000);
      expect((await get()).statusCode).toBe(429);
      // ...and accepted once it has passed.
      clock.advance(1_000);
      const after = await get();
      expect(after.statusCode).toBe(200);
      expect(after.headers['x-ratelimit-remaining']).toBe('0');
      // Reset: when every counted request has left the window, the whole budget is back.
      expect(after.headers['x-ratelimit-reset']).toBe('60');
      clock.advance(60_000);
      expect((await get()).headers['x-ratelimit-remaining']).toBe(String(L - 1));
    } finally {
      await t.app.close();
    }
  });

  it('counts requests without a key or with a wrong key per IP before authentication (sandbox)', async () => {
    const L = 5;
    const clock = new ManualClock();
    const t = await sandboxApp(L, makeStore(), clock);
    try {
      const ip = freshIp();
      const answers = [];
      for (let i = 0; i < L + 2; i++) {
        const headers = i % 2 ? { authorization: `Bearer sk_test_${randomBytes(16).toString('hex')}` } : {};
        answers.push(await t.app.inject({ method: 'GET', url: '/v1/ufs', headers, remoteAddress: ip }));
      }
      expect(answers.map((r) => r.statusCode)).toEqual([401, 401, 401, 401, 401, 429, 429]);
      answers.slice(0, L).forEach((r, i) => {
        expect(r.headers['x-ratelimit-limit']).toBe(String(L));
        expect(r.headers['x-ratelimit-remaining']).toBe(String(L - 1 - i));
        expect(r.headers['x-ratelimit-window']).toBe('60');
      });
      // The sandbox key from that IP shares the same per-IP budget (docs/guides/api.md#contract-limits).
      expect((await t.app.inject({ method: 'GET', url: '/v1/ufs', headers: sandbox, remoteAddress: ip })).statusCode).toBe(429);
      // Public routes are never limited.
      expect((await t.app.inject({ method: 'GET', url: '/healthz', remoteAddress: ip })).statusCode).toBe(200);
    } finally {
      await t.app.close();
    }
  });

  it('production: 3,000 random keys from one IP cost at most the limit in key lookups, then 429', async () => {
    const L = 20;
    const clock = new ManualClock();
    const t = await createTestApp({ clock, env: { GATEWAY_ENV: 'production', RATE_LIMIT_PER_MINUTE: String(L) }, options: { rateLimitStore: makeStore() } });
    const query = vi.spyOn(t.ctx.db, 'query');
    const keyLookups = () => query.mock.calls.filter(([sql]) => /FROM applications\s+WHERE revoked_at IS NULL/.test(String(sql))).length;
    try {
      const ip = freshIp();
      const wrong = () => t.app.inject({ method: 'GET', url: '/v1/ufs', headers: { authorization: `Bearer sk_live_${randomBytes(16).toString('hex')}` }, remoteAddress: ip });
      for (let i = 0; i < L; i++) {
        const res = await wrong();
        expect(res.statusCode).toBe(401);
        expect(res.headers['x-ratelimit-limit']).toBe(String(L));
        expect(res.headers['x-ratelimit-remaining']).toBe(String(L - 1 - i));
        expect(res.headers['x-ratelimit-reset']).toBe('60');
      }
      const statuses: number[] = [];
      for (let batch = 0; batch < 3000 - L; batch += 100) {
        const answers = await Promise.all(Array.from({ length: Math.min(100, 3000 - L - batch) }, wrong));
        for (const r of answers) {
          statuses.push(r.statusCode);
          if (r.statusCode === 429) expect(r.headers['retry-after']).toBe('60');
        }
      }
      expect(statuses.filter((s) => s === 429)).toHaveLength(3000 - L);
      expect(keyLookups()).toBeLessThanOrEqual(L);

      // A valid key is counted on its application, not on the IP's budget for failed keys: L good
      // requests from a fresh IP leave that IP's budget whole.
      const { auth } = await t.newAccount();
      const other = freshIp();
      for (let i = 0; i < L; i++) {
        const ok = await t.app.inject({ method: 'GET', url: '/v1/ufs', headers: auth, remoteAddress: other });
        expect(ok.statusCode).toBe(200);
        expect(ok.headers['x-ratelimit-remaining']).toBe(String(L - 1 - i));
      }
      expect((await t.app.inject({ method: 'GET', url: '/v1/ufs', headers: auth, remoteAddress: other })).statusCode).toBe(429);
      const bad = await t.app.inject({ method: 'GET', url: '/v1/ufs', remoteAddress: other });
      expect(bad.statusCode).toBe(401);
      expect(bad.headers['x-ratelimit-remaining']).toBe(String(L - 1));
    } finally {
      query.mockRestore();
      await t.app.close();
    }
  });
});

describe.each(stores)('a shared address (%s)', (_name, makeStore) => {
  it('production: a flood of wrong keys from an address does not lock out a valid key the process knows, nor limit a burst of it below its own limit', async () => {
    const L = 20;
    const clock = new ManualClock();
    const t = await createTestApp({ clock, env: { GATEWAY_ENV: 'production', RATE_LIMIT_PER_MINUTE: String(L) }, options: { rateLimitStore: makeStore() } });
    try {
      const shared = freshIp(); // a shop's NAT: one good POS, one misconfigured
      const { auth } = await t.newAccount();
      expect((await t.app.inject({ method: 'GET', url: '/v1/ufs', headers: auth, remoteAddress: shared })).statusCode).toBe(200);
      const wrong = () => t.app.inject({ method: 'GET', url: '/v1/ufs', headers: { authorization: `Bearer sk_live_${randomBytes(16).toString('hex')}` }, remoteAddress: shared });
      const flood = await Promise.all(Array.from({ length: L * 3 }, wrong));
      expect(flood.filter((r) => r.statusCode === 429).length).toBeGreaterThanOrEqual(L * 2);
      // The good key still works from the same address, all of its remaining budget at once.
      const burst = await Promise.all(Array.from({ length: L }, () => t.app.inject({ method: 'GET', url: '/v1/ufs', headers: auth, remoteAddress: shared })));
      expect(burst.map((r) => r.statusCode).sort()).toEqual([...Array<number>(L - 1).fill(200), 429]);
      expect(burst.find((r) => r.statusCode === 429)!.json().message).toMatch(/for this API key/);
    } finally {
      await t.app.close();
    }
  });
});

describe('while Redis is down', () => {
  it('counts in process without waiting for Redis, and warns once per 30 s without a stack trace', async () => {
    const port = await closedPort();
    const down = openRateLimitRedis(`redis://127.0.0.1:${port}`);
    // The store as the app sees it, noting why each call to Redis failed.
    const refusals = {
      seen: [] as string[],
      of(store: RateLimitStore): RateLimitStore {
        return { ...store, take: (...args) => store.take(...args).catch((err: Error) => {
          refusals.seen.push(err.message);
          throw err;
        }) };
      },
    };
    const logs: Array<Record<string, unknown>> = [];
    const clock = new ManualClock();
    const t = await createTestApp({
      clock,
      env: { RATE_LIMIT_PER_MINUTE: '10' },
      options: { rateLimitStore: refusals.of(redisRateLimitStore(down)), logger: { level: 'warn', stream: { write: (line: string) => void logs.push(JSON.parse(line)) } } },
    });
    try {
      const ip = freshIp();
      const get = () => t.app.inject({ method: 'GET', url: '/v1/ufs', headers: sandbox, remoteAddress: ip });
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) statuses.push((await get()).statusCode);
      // The app's client fails at once while Redis is unreachable: every command is refused up front
      // (no offline queue to wait in), never after a command timeout or reconnect retries, which is
      // what ioredis defaults would do (seconds each). Checked by what failed, not by a stopwatch.
      expect(refusals.seen).toHaveLength(40);
      expect(new Set(refusals.seen)).toEqual(new Set([expect.stringMatching(/enableOfflineQueue options is false/)]));
      expect(statuses).toEqual([...Array(10).fill(200), ...Array(30).fill(429)]);
      const warnings = () => logs.filter((l) => l.msg === 'rate limit store unavailable; counting in process');
      expect(warnings()).toHaveLength(1);
      expect(warnings()[0]).toMatchObject({ level: 40, suppressed: 0, error: expect.any(String) });
      expect(JSON.stringify(logs)).not.toMatch(/"stack"|at async|\n\s+at /);
      clock.advance(30_000);
      await get();
      expect(warnings()).toHaveLength(2);
      expect(warnings()[1]).toMatchObject({ suppressed: 39 });
    } finally {
      await t.app.close();
      down.disconnect();
    }
  });
});

/** A port nothing listens on: bound once, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
