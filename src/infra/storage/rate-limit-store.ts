import { addTo, peekAt, stampFor, takeFrom, type RateVerdict } from './rate-limit-window.js';

/** One request's verdict, and how to give it back (a pre-authentication count refunded once the key is valid). */
export interface Taken extends RateVerdict {
  /** Uncounts this request if it was accepted; a no-op otherwise. */
  giveBack(): Promise<void>;
}

/**
 * Sliding-window request counters (src/infra/storage/rate-limit-window.ts). In process by default; in
 * Redis (src/infra/storage/redis-rate-limit-store.ts) when several processes share the limits.
 */
export interface RateLimitStore {
  /** Takes one request from `key`'s budget of `limit` per 60 s at `nowMs` (the app's clock), if there is room. */
  take(key: string, limit: number, nowMs: number): Promise<Taken>;
  /** What `key`'s budget is at `nowMs` without taking from it (the headers of an answer that is not counted). */
  peek(key: string, limit: number, nowMs: number): Promise<RateVerdict>;
  readonly kind: 'memory' | 'redis';
}

// A flood of distinct IPs must not grow the map without bound (one entry per client, at most 61
// stamps each): beyond this many keys the least recently used one is forgotten.
const DEFAULT_MAX_KEYS = 50_000;

export function memoryRateLimitStore(maxKeys = DEFAULT_MAX_KEYS): RateLimitStore & { readonly size: number } {
  // Map order is insertion order: re-inserting on every use keeps the least recently used first.
  const byKey = new Map<string, number[]>();
  return {
    kind: 'memory',
    get size() {
      return byKey.size;
    },
    async take(key, limit, nowMs) {
      const entries = byKey.get(key) ?? [];
      byKey.delete(key);
      const verdict = takeFrom(entries, limit, nowMs);
      if (entries.length) {
        if (byKey.size >= maxKeys) byKey.delete(byKey.keys().next().value!);
        byKey.set(key, entries);
      }
      let stamp = verdict.allowed ? stampFor(nowMs, limit) : undefined;
      return {
        ...verdict,
        async giveBack() {
          if (stamp === undefined) return;
          const current = byKey.get(key);
          if (current) addTo(current, stamp, -1);
          stamp = undefined; // once
        },
      };
    },
    async peek(key, limit, nowMs) {
      return peekAt(byKey.get(key) ?? [], limit, nowMs);
    },
  };
}
