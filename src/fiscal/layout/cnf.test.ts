import { describe, expect, it } from 'vitest';
import { generateCnf, isValidCnf } from './cnf.js';

describe('cNF (NT 2019.001 B03-10)', () => {
  it('refuses nNF itself and the forbidden sequences', () => {
    expect(isValidCnf('00000123', 123)).toBe(false);
    for (const bad of ['00000000', '99999999', '12345678', '01234567', '90123456']) expect(isValidCnf(bad, 1)).toBe(false);
    expect(isValidCnf('1234567', 1)).toBe(false);
    expect(isValidCnf('48213377', 1)).toBe(true);
  });

  it('draws again when the random source hits a forbidden value', () => {
    const draws = [123, 12345678, 11111111, 77];
    const cnf = generateCnf(123, () => draws.shift()!);
    expect(cnf).toBe('00000077');
  });

  it('always yields 8 valid digits', () => {
    for (let n = 1; n < 2000; n++) {
      const cnf = generateCnf(n);
      expect(cnf).toMatch(/^[0-9]{8}$/);
      expect(isValidCnf(cnf, n)).toBe(true);
    }
  });
});
