import { localDateTime } from '../../fiscal/layout/local-time.js';

/** The time zone whose calendar days the overview counts: the gateway's notes are Brazilian, as are billing periods. */
export const OVERVIEW_TIME_ZONE = 'America/Sao_Paulo' as const;

export interface LocalWindow {
  /** YYYY-MM-DD in the zone. */
  day: string;
  /** YYYY-MM in the zone (the billing period's name, platform/billing/period.ts). */
  month: string;
  monthStart: Date;
  dayStart: Date;
  /** The next day's start (exclusive). */
  end: Date;
}

/**
 * Today and this month in São Paulo's calendar around `now`, as UTC instants. The zone's offset at
 * `now` (fiscal/layout/local-time.ts, tzdata) holds for the whole month: Brazil has kept no daylight
 * saving since 2019. Pure.
 */
export function localWindow(now: Date, timeZone: string = OVERVIEW_TIME_ZONE): LocalWindow {
  const local = localDateTime(now, timeZone);
  const offset = local.text.slice(19); // "-03:00"
  const offsetMs = (offset.startsWith('-') ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6))) * 60_000;
  const wall = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d) - offsetMs);
  const two = (n: number) => String(n).padStart(2, '0');
  return {
    day: `${local.year}-${two(local.month)}-${two(local.day)}`,
    month: `${local.year}-${two(local.month)}`,
    monthStart: wall(local.year, local.month, 1),
    dayStart: wall(local.year, local.month, local.day),
    end: wall(local.year, local.month, local.day + 1),
  };
}
