import { describe, expect, it } from 'vitest';
import { timeZoneOf } from './ibge.js';
import { localDateTime } from './local-time.js';

describe('dhEmi in the issuer local offset', () => {
  const instant = new Date('2026-01-15T02:30:09.750Z');
  it('writes Sao Paulo at -03:00 with no DST in January (abolished 2019)', () => {
    expect(localDateTime(instant, timeZoneOf('3550308', 'SP')).text).toBe('2026-01-14T23:30:09-03:00');
  });
  it('uses the municipality zone: Manaus -04:00, Rio Branco -05:00, Noronha -02:00', () => {
    expect(localDateTime(instant, timeZoneOf('1302603', 'AM')).text).toBe('2026-01-14T22:30:09-04:00');
    expect(localDateTime(instant, timeZoneOf('1200401', 'AC')).text).toBe('2026-01-14T21:30:09-05:00');
    expect(localDateTime(instant, 'America/Noronha').text).toBe('2026-01-15T00:30:09-02:00');
  });
  it('reports the local calendar day used by the key (AAMM) and the QR code (dd)', () => {
    const local = localDateTime(new Date('2026-03-01T01:00:00Z'), 'America/Sao_Paulo');
    expect([local.year, local.month, local.day]).toEqual([2026, 2, 28]);
  });
});

describe('the offset kept per quarter hour gives what Intl gives for every instant', () => {
  // What Intl says for one instant, read afresh (the reference the cache must agree with).
  const reference = (date: Date, timeZone: string) => {
    const f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    const p = Object.fromEntries(f.formatToParts(date).filter((x) => x.type !== 'literal').map((x) => [x.type, x.value]));
    return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`;
  };
  it('across the last Brazilian DST transitions (2018-11-04, 2019-02-17) and a half-hour zone, minute by minute', () => {
    const cases: Array<[string, string]> = [
      ['America/Sao_Paulo', '2018-11-04T01:00:00Z'],
      ['America/Sao_Paulo', '2019-02-17T00:00:00Z'],
      ['America/Campo_Grande', '2018-11-04T02:00:00Z'],
      ['Australia/Lord_Howe', '2025-10-04T14:00:00Z'],
    ];
    for (const [zone, from] of cases) {
      for (let m = 0; m < 4 * 60; m += 1) {
        const at = new Date(Date.parse(from) + m * 60_000 + 17_000);
        expect(localDateTime(at, zone).text.slice(0, 19), `${zone} ${at.toISOString()}`).toBe(reference(at, zone));
      }
    }
    expect(localDateTime(new Date('2018-11-04T02:59:59Z'), 'America/Sao_Paulo').text).toBe('2018-11-03T23:59:59-03:00');
    expect(localDateTime(new Date('2018-11-04T03:00:00Z'), 'America/Sao_Paulo').text).toBe('2018-11-04T01:00:00-02:00');
  });
});
