import type { Redis } from 'ioredis';

/** Counts hits in fixed windows. In process by default; in Redis when several processes share limits. */
export interface RateLimitStore {
  /** Adds one hit to `key`'s window and returns the count so far. */
  hit(key: string, windowMs: number): Promise<number>;
  readonly kind: 'memory' | 'redis';
}

export function memoryRateLimitStore(): RateLimitStore {
  const counts = new Map<string, { n: number; expires: number }>();
  let sweeps = 0;
  return {
    kind: 'memory',
    async hit(key, windowMs) {
      const now = Date.now();
      // Drop finished windows now and then so the map cannot grow without bound.
      if (++sweeps % 1000 === 0) for (const [k, v] of counts) if (v.expires <= now) counts.delete(k);
      const entry = counts.get(key);
      if (entry && entry.expires > now) return ++entry.n;
      counts.set(key, { n: 1, expires: now + windowMs * 2 });
      return 1;
    },
  };
}

export function redisRateLimitStore(redis: Redis, prefix = 'rl:'): RateLimitStore {
  return {
    kind: 'redis',
    async hit(key, windowMs) {
      const k = prefix + key;
      const res = await redis.multi().incr(k).pexpire(k, windowMs * 2).exec();
      const n = res?.[0]?.[1];
      if (typeof n !== 'number') throw new Error('rate limit counter unavailable');
      return n;
    },
  };
}
