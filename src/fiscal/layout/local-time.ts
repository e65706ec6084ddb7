// TDateTimeUTC ("2026-11-21T10:05:09-03:00"): local wall time of the issuer plus its UTC offset.
// Offsets come from the IANA zone of the issuer's municipality (IBGE table); Brazil has had no
// daylight saving since 2019 (Decreto 9.772/2019) and tzdata knows the older history.

const formatters = new Map<string, Intl.DateTimeFormat>();

function partsIn(date: Date, timeZone: string): Record<string, number> {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  const out: Record<string, number> = {};
  for (const p of f.formatToParts(date)) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return out;
}

export interface LocalDateTime {
  text: string; // TDateTimeUTC
  year: number;
  month: number;
  day: number;
}

// A zone's offset changes only at its transitions, which fall on a quarter of an hour (Brazil's on the hour,
// Decreto 9.772/2019 ended them): the offset found for an instant holds for its whole quarter hour, so Intl
// (tens of microseconds a call, and every note asks for several times) is asked once per zone and quarter.
const QUARTER_MS = 15 * 60_000;
const offsets = new Map<string, number>();

function offsetMinutesAt(whole: Date, timeZone: string): number {
  const key = `${timeZone}@${Math.floor(whole.getTime() / QUARTER_MS)}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    const p = partsIn(whole, timeZone);
    offset = Math.round((Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) - whole.getTime()) / 60000);
    if (offsets.size >= 10_000) offsets.clear();
    offsets.set(key, offset);
  }
  return offset;
}

export function localDateTime(date: Date, timeZone: string): LocalDateTime {
  const whole = new Date(Math.floor(date.getTime() / 1000) * 1000);
  const offsetMinutes = offsetMinutesAt(whole, timeZone);
  const local = new Date(whole.getTime() + offsetMinutes * 60_000);
  const p = { year: local.getUTCFullYear(), month: local.getUTCMonth() + 1, day: local.getUTCDate(), hour: local.getUTCHours(), minute: local.getUTCMinutes(), second: local.getUTCSeconds() };
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const two = (n: number) => String(n).padStart(2, '0');
  const text =
    `${p.year}-${two(p.month)}-${two(p.day)}T${two(p.hour)}:${two(p.minute)}:${two(p.second)}` +
    `${sign}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
  return { text, year: p.year, month: p.month, day: p.day };
}
