import { Redis } from 'ioredis';
import type { RateLimitStore } from './rate-limit-store.js';
import { peekAt, RATE_WINDOW_MS, stampFor, verdictOf } from './rate-limit-window.js';

// One script per request, so processes sharing the counters decide atomically.
// The same steps as takeFrom in rate-limit-window.ts: drop the stamps the window has passed, count
// the rest, add this request's stamp if the count is under the limit. The key (a hash of
// stamp -> count) expires one window after its newest stamp leaves the window: the stamps are judged
// by the app's clock (ARGV[1]), so every process uses one time base and tests can move it, while
// the TTL runs on Redis's own clock; the spare window keeps a key alive through any skew between
// the two (a TTL of exactly "until the newest stamp leaves" could drop live stamps 1 ms early).
const TAKE = `
local now = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local all = redis.call('HGETALL', KEYS[1])
local live = {}
local used = 0
local newest = nil
for i = 1, #all, 2 do
  local stamp = tonumber(all[i])
  if stamp + window <= now then
    redis.call('HDEL', KEYS[1], all[i])
  else
    used = used + tonumber(all[i + 1])
    live[#live + 1] = all[i]
    live[#live + 1] = all[i + 1]
    if newest == nil or stamp > newest then newest = stamp end
  end
end
local allowed = 0
if used < limit then
  allowed = 1
  redis.call('HINCRBY', KEYS[1], ARGV[4], 1)
  local stamp = tonumber(ARGV[4])
  if newest == nil or stamp > newest then newest = stamp end
end
if newest ~= nil then redis.call('PEXPIRE', KEYS[1], math.max(0, newest + window - now) + window) end
return { allowed, live }
`;

// Refunds one request at a stamp (a pre-authentication count once the key proved valid).
const GIVE_BACK = `
if redis.call('HINCRBY', KEYS[1], ARGV[1], -1) <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
return 1
`;

interface RateLimitCommands {
  rateLimitTake(key: string, now: number, limit: number, window: number, stamp: string): Promise<[number, string[]]>;
  rateLimitGiveBack(key: string, stamp: string): Promise<number>;
}

export function redisRateLimitStore(redis: Redis, prefix = 'rlw:'): RateLimitStore {
  // defineCommand sends EVALSHA and falls back to EVAL when the server does not have the script.
  redis.defineCommand('rateLimitTake', { numberOfKeys: 1, lua: TAKE });
  redis.defineCommand('rateLimitGiveBack', { numberOfKeys: 1, lua: GIVE_BACK });
  const commands = redis as unknown as RateLimitCommands;
  return {
    kind: 'redis',
    async take(key, limit, nowMs) {
      const k = prefix + key;
      const stamp = stampFor(nowMs, limit);
      const [allowed, live] = await commands.rateLimitTake(k, nowMs, limit, RATE_WINDOW_MS, String(stamp));
      const entries = live.map(Number);
      if (allowed === 1) entries.push(stamp, 1);
      let refundable = allowed === 1;
      return {
        ...verdictOf(entries, allowed === 1, limit, nowMs),
        async giveBack() {
          if (!refundable) return;
          refundable = false;
          await commands.rateLimitGiveBack(k, String(stamp));
        },
      };
    },
    async peek(key, limit, nowMs) {
      // Read only: the stamps the window has passed are pruned by the next take.
      const all = await redis.hgetall(prefix + key);
      return peekAt(Object.entries(all).flatMap(([stamp, count]) => [Number(stamp), Number(count)]), limit, nowMs);
    },
  };
}

/**
 * The Redis client for shared counters: while Redis is down a command fails at once (no offline
 * queue, one retry, short connect and command timeouts) and the limiter counts in process, so an
 * outage never slows a request down (src/infra/storage/rate-limit-fallback.ts).
 */
export function openRateLimitRedis(url: string): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2_000, commandTimeout: 1_000 });
  redis.on('error', () => undefined); // reported by the rate limiter's fallback and by /healthz/deep
  return redis;
}
