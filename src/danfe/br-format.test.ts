import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  formatAccessKey,
  formatCnpj,
  formatCpf,
  formatDateTime,
  formatDecimal,
  formatMoney,
  formatNoteNumber,
  formatPhone,
  sumMoney,
  toCents,
} from './br-format.js';

describe('Brazilian formatting of XML values', () => {
  it('writes money with thousands dots and decimal comma', () => {
    expect(formatMoney('1500.00')).toBe('1.500,00');
    expect(formatMoney('0.5')).toBe('0,50');
    expect(formatMoney('1234567.89')).toBe('1.234.567,89');
    expect(formatMoney('-3.10')).toBe('-3,10');
    expect(formatMoney('96.2250')).toBe('96,23');
  });

  it('keeps every cent of any amount (no float rounding)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9_999_999_999_999 }), (cents) => {
        const xml = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
        expect(toCents(xml)).toBe(cents);
        expect(formatMoney(xml).replace(/\./g, '').replace(',', '')).toBe(String(cents).padStart(3, '0'));
      }),
    );
  });

  it('sums amounts exactly', () => {
    expect(sumMoney(['0.10', '0.20', undefined, '1000.05'])).toBe('1000.35');
  });

  it('shows significant decimals of prices and quantities only', () => {
    expect(formatDecimal('96.2200', 2)).toBe('96,22');
    expect(formatDecimal('0.1234', 2)).toBe('0,1234');
    expect(formatDecimal('1.0000', 0)).toBe('1');
    expect(formatDecimal('1234.5000', 0)).toBe('1.234,5');
  });

  it('prints dhEmi in the issuer offset as dd/mm/yyyy hh:mm:ss', () => {
    expect(formatDateTime('2018-10-01T07:28:14-04:00')).toBe('01/10/2018 07:28:14');
    expect(formatDateTime('2017-04-12T17:14:28')).toBe('12/04/2017 17:14:28');
  });

  it('formats documents, number, key and phone', () => {
    expect(formatAccessKey('41170410422724000187650010000005101000010235')).toBe('4117 0410 4227 2400 0187 6500 1000 0005 1010 0001 0235');
    expect(formatNoteNumber('510')).toBe('000.000.510');
    expect(formatCnpj('10422724000187')).toBe('10.422.724/0001-87');
    expect(formatCnpj('12ABC34501DE35')).toBe('12.ABC.345/01DE-35');
    expect(formatCpf('12345678909')).toBe('123.456.789-09');
    expect(formatPhone('02936882500')).toBe('(29) 3688-2500');
  });
});
