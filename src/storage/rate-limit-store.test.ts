import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryRateLimitStore, redisRateLimitStore, type RateLimitStore } from './rate-limit-store.js';

const redisUrl = process.env.TEST_REDIS_URL;
const redis = redisUrl ? new Redis(redisUrl, { maxRetriesPerRequest: 1 }) : undefined;
afterAll(() => redis?.disconnect());

const stores: Array<[string, () => RateLimitStore]> = [['memory', () => memoryRateLimitStore()]];
if (redis) stores.push(['redis', () => redisRateLimitStore(redis, `rl-test-${process.pid}-${Date.now()}:`)]);

describe.each(stores)('%s rate limit store', (_name, make) => {
  it('counts hits per key and window', async () => {
    const store = make();
    const counts = await Promise.all(Array.from({ length: 25 }, () => store.hit('k1:0', 60_000)));
    expect(counts.sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(await store.hit('k2:0', 60_000)).toBe(1);
  });
});

describe.runIf(redis)('redis store shared by two processes', () => {
  it('two stores on one Redis see one counter', async () => {
    const prefix = `rl-shared-${Date.now()}:`;
    const a = redisRateLimitStore(redis!, prefix);
    const other = new Redis(redisUrl!);
    const b = redisRateLimitStore(other, prefix);
    await a.hit('x', 60_000);
    expect(await b.hit('x', 60_000)).toBe(2);
    other.disconnect();
  });
});
