/**
 * Webhook retry schedule (docs/decisions.md#webhooks): after a failed attempt the next one
 * comes 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h later, then every 8 h, each delay
 * with +/-10% jitter (so endpoints that fail together are not retried in lockstep), until 72 h
 * after the event: a retry that would fall later is not made and the delivery is `failed`
 * (16 or 17 attempts in all when every one fails, as the jitter falls).
 */
export const RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000] as const;
export const RETRY_WINDOW_MS = 72 * 3_600_000;
const JITTER = 0.1;

/** Delay after failed attempt number `attempt` (1-based). */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length) - 1]!;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}

/** When to try again after failed attempt `attempt`, or null when the window is over. */
export function nextRetryAt(firstAt: Date, now: Date, attempt: number, random: () => number = Math.random): Date | null {
  const at = new Date(now.getTime() + retryDelayMs(attempt, random));
  return at.getTime() - firstAt.getTime() > RETRY_WINDOW_MS ? null : at;
}

/** How long an endpoint may fail without a single success before it is disabled. */
export const DISABLE_AFTER_MS = RETRY_WINDOW_MS;
