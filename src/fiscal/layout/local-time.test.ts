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
