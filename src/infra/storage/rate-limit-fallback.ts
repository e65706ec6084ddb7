import { memoryRateLimitStore, type RateLimitStore } from './rate-limit-store.js';

// While the shared store is down every request would warn; one line per interval says the same.
const WARN_EVERY_MS = 30_000;

export interface FallbackOptions {
  /** Where the throttled warning goes (the app's logger). */
  warn(fields: { error: string; suppressed: number }, message: string): void;
  /** The app's clock, in ms. */
  nowMs(): number;
  warnEveryMs?: number;
}

/**
 * A shared-counter outage must not take the API down: while `primary` (Redis) fails, requests are
 * counted in process, and the failure is logged at most once per WARN_EVERY_MS with the number of
 * failures not logged since, and without a stack trace. Counting is per
 * process during an outage; a request taken in one store is given back to the same store.
 */
export function withInProcessFallback(primary: RateLimitStore, opts: FallbackOptions): RateLimitStore {
  if (primary.kind === 'memory') return primary;
  const fallback = memoryRateLimitStore();
  const every = opts.warnEveryMs ?? WARN_EVERY_MS;
  let lastWarnAt = -Infinity;
  let suppressed = 0;
  return {
    kind: primary.kind,
    async take(key, limit, nowMs) {
      try {
        const taken = await primary.take(key, limit, nowMs);
        // A refund lost to an outage only leaves the count one higher (stricter, never laxer).
        return { ...taken, giveBack: () => taken.giveBack().catch(() => undefined) };
      } catch (err) {
        const now = opts.nowMs();
        if (now - lastWarnAt >= every || now < lastWarnAt) {
          opts.warn({ error: err instanceof Error ? err.message : String(err), suppressed }, 'rate limit store unavailable; counting in process');
          lastWarnAt = now;
          suppressed = 0;
        } else {
          suppressed++;
        }
        return fallback.take(key, limit, nowMs);
      }
    },
    async peek(key, limit, nowMs) {
      // Only headers hang on a peek: during an outage the in-process count is the one being kept.
      return primary.peek(key, limit, nowMs).catch(() => fallback.peek(key, limit, nowMs));
    },
  };
}
