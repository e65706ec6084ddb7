/**
 * The rate limit's arithmetic (docs/guides/api.md#contract-limits): a sliding 60-second window, shared by
 * the in-process store and the Redis script so both decide alike.
 *
 * A key's state is the list of the requests it had accepted, as (stamp, count) entries. A request
 * is accepted when fewer than `limit` accepted requests lie in the window (now - 60 s, now]; so no
 * 60-second window ever holds more than `limit` accepted requests. (Fixed one-minute windows let 2x
 * the limit through across a boundary; a token bucket with a burst of `limit` lets 2x-1 through.)
 *
 * Memory per key is bounded: up to EXACT_UP_TO per window each request keeps its own millisecond
 * (at most `limit` entries); above it requests share 1-second slots (at most 61 entries), each
 * stamped with its slot's last millisecond, so the limiter may refuse up to 1 s early but never
 * accepts more than the limit.
 */
export const RATE_WINDOW_MS = 60_000;
const EXACT_UP_TO = 60;
const SLOT_MS = 1_000;

/** What one request got, and what the answer's headers say (src/http/plugins/rate-limit.ts). */
export interface RateVerdict {
  allowed: boolean;
  limit: number;
  /** How many more requests would be accepted right now. */
  remaining: number;
  /** Until the next request would be accepted: 0 while remaining > 0 (Retry-After, rounded up). */
  retryAfterMs: number;
  /** Until every counted request has left the window and the whole limit is back (X-RateLimit-Reset). */
  resetMs: number;
}

/** The stamp a request accepted at `nowMs` is recorded under (its own ms, or its slot's last ms). */
export function stampFor(nowMs: number, limit: number): number {
  if (limit <= EXACT_UP_TO) return nowMs;
  return Math.floor(nowMs / SLOT_MS) * SLOT_MS + SLOT_MS - 1;
}

/** A stamp counts until the window has wholly passed it. */
export function isLive(stamp: number, nowMs: number): boolean {
  return stamp + RATE_WINDOW_MS > nowMs;
}

/**
 * The verdict from the live entries (flat [stamp, count, ...], any order) as they are after this
 * request: including it when it was accepted.
 */
export function verdictOf(entries: readonly number[], allowed: boolean, limit: number, nowMs: number): RateVerdict {
  const pairs: Array<[number, number]> = [];
  let used = 0;
  for (let i = 0; i + 1 < entries.length; i += 2) {
    pairs.push([entries[i]!, entries[i + 1]!]);
    used += entries[i + 1]!;
  }
  pairs.sort((a, b) => a[0] - b[0]);
  const remaining = Math.max(0, limit - used);
  let retryAfterMs = 0;
  if (remaining === 0) {
    // The oldest entries leave first; the next request is accepted once used < limit.
    let left = used;
    for (const [stamp, count] of pairs) {
      left -= count;
      if (left < limit) {
        retryAfterMs = stamp + RATE_WINDOW_MS - nowMs;
        break;
      }
    }
  }
  const newest = pairs.length ? pairs[pairs.length - 1]![0] : nowMs - RATE_WINDOW_MS;
  return { allowed, limit, remaining, retryAfterMs: Math.max(0, retryAfterMs), resetMs: Math.max(0, newest + RATE_WINDOW_MS - nowMs) };
}

/**
 * Prunes `entries` (flat [stamp, count, ...]) in place to the live ones and takes one request if
 * there is room. Returns the verdict; the Redis script does the same steps atomically.
 */
export function takeFrom(entries: number[], limit: number, nowMs: number): RateVerdict {
  let used = 0;
  let w = 0;
  for (let i = 0; i + 1 < entries.length; i += 2) {
    if (!isLive(entries[i]!, nowMs)) continue;
    entries[w++] = entries[i]!;
    entries[w++] = entries[i + 1]!;
    used += entries[i + 1]!;
  }
  entries.length = w;
  const allowed = used < limit;
  if (allowed) addTo(entries, stampFor(nowMs, limit), 1);
  return verdictOf(entries, allowed, limit, nowMs);
}

/** The verdict a request would meet at `nowMs` (entries flat [stamp, count, ...]), taking nothing: the live entries as they are. */
export function peekAt(entries: readonly number[], limit: number, nowMs: number): RateVerdict {
  const live: number[] = [];
  let used = 0;
  for (let i = 0; i + 1 < entries.length; i += 2) {
    if (!isLive(entries[i]!, nowMs)) continue;
    live.push(entries[i]!, entries[i + 1]!);
    used += entries[i + 1]!;
  }
  return verdictOf(live, used < limit, limit, nowMs);
}

/** Adds `delta` requests at `stamp`, dropping the entry when it reaches 0. */
export function addTo(entries: number[], stamp: number, delta: number): void {
  for (let i = 0; i + 1 < entries.length; i += 2) {
    if (entries[i] !== stamp) continue;
    entries[i + 1]! += delta;
    if (entries[i + 1]! <= 0) entries.splice(i, 2);
    return;
  }
  if (delta > 0) entries.push(stamp, delta);
}
