/**
 * Billing periods are calendar months in Brasília time (UTC-03:00; Brazil has kept no daylight saving
 * time since 2019), named `YYYY-MM`: a sale at 23:30 of 31 October in São Paulo is October's even
 * though it is 1 November in UTC. Pure functions.
 */
const OFFSET_MS = 3 * 3_600_000;

export interface Period {
  id: string;
  start: Date;
  /** Exclusive: the next period's start. */
  end: Date;
}

export function periodOf(at: Date): string {
  return new Date(at.getTime() - OFFSET_MS).toISOString().slice(0, 7);
}

export function isPeriodId(value: string): boolean {
  return /^\d{4}-(0[1-9]|1[0-2])$/.test(value);
}

export function periodBounds(id: string): Period {
  const [y, m] = id.split('-').map(Number) as [number, number];
  return { id, start: new Date(Date.UTC(y, m - 1, 1) + OFFSET_MS), end: new Date(Date.UTC(y, m, 1) + OFFSET_MS) };
}

export function nextPeriod(id: string): string {
  return periodOf(periodBounds(id).end);
}

export function previousPeriod(id: string): string {
  return periodOf(new Date(periodBounds(id).start.getTime() - 1));
}
