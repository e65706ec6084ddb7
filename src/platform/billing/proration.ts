import { PLANS, type PlanId } from './plans.js';
import type { Period } from './period.js';

export interface Proration {
  from_plan: PlanId;
  to_plan: PlanId;
  /** Milliseconds of the period left when the change takes effect, and the period's length. */
  remaining_ms: number;
  period_ms: number;
  /** remaining_ms / period_ms, rounded to 6 places (shown; the amount uses the exact ratio). */
  fraction: number;
  price_difference_cents: number;
  /** round(price_difference_cents x remaining_ms / period_ms), half up; 0 for a downgrade (no refunds). */
  amount_cents: number;
}

/**
 * An upgrade at `at` pays the price difference for the part of the period left, to the millisecond:
 * starter (R$ 49) to pro (R$ 199) halfway through a 30-day month is R$ 150 x 15/30 = R$ 75,00.
 * A downgrade takes effect at the period's end, so nothing is left to prorate. Pure.
 */
export function prorate(from: PlanId, to: PlanId, period: Period, at: Date): Proration {
  const periodMs = period.end.getTime() - period.start.getTime();
  const remainingMs = remainingOf(period, at);
  const difference = PLANS[to].monthly_price_cents - PLANS[from].monthly_price_cents;
  const amount = difference > 0 ? periodShare(difference, period, at) : 0;
  return {
    from_plan: from,
    to_plan: to,
    remaining_ms: remainingMs,
    period_ms: periodMs,
    fraction: Math.round((remainingMs / periodMs) * 1e6) / 1e6,
    price_difference_cents: difference,
    amount_cents: amount,
  };
}

const remainingOf = (period: Period, at: Date) => Math.max(0, Math.min(period.end.getTime() - period.start.getTime(), period.end.getTime() - at.getTime()));

/** `cents` for the part of `period` from `at` to its end, to the millisecond, rounded half up. Pure. */
export function periodShare(cents: number, period: Period, at: Date): number {
  return Math.round((cents * remainingOf(period, at)) / (period.end.getTime() - period.start.getTime()));
}
