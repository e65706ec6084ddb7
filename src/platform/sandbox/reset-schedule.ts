import type { ResetTime } from '../../config.js';

const DAY_MS = 86_400_000;

export const formatResetTime = (t: ResetTime) => `${String(t.hour).padStart(2, '0')}:${String(t.minute).padStart(2, '0')}`;

/** The reset instant on the UTC day `day` (YYYY-MM-DD). */
export function resetInstantOn(day: string, t: ResetTime): Date {
  return new Date(`${day}T${formatResetTime(t)}:00.000Z`);
}

/** The first reset strictly after `now`. */
export function nextResetAt(now: Date, t: ResetTime): Date {
  const today = resetInstantOn(now.toISOString().slice(0, 10), t);
  return today > now ? today : new Date(today.getTime() + DAY_MS);
}

/** The latest reset instant at or before `now`. */
export function lastResetAt(now: Date, t: ResetTime): Date {
  return new Date(nextResetAt(now, t).getTime() - DAY_MS);
}

/** True when a reset instant falls in (from, to]: something remembered at `from` may have been wiped since. */
export function resetBetween(t: ResetTime | null, from: Date, to: Date): boolean {
  return t !== null && lastResetAt(to, t) > from;
}
