import { describe, expect, it } from 'vitest';
import { isNcmValid, ncmCount, ncmProblem } from './ncm.js';

// Codes and dates read from the Siscomex table (docs/fiscal/ncm.md): 09012100 (roasted coffee, not
// decaffeinated) since 01/04/2022; 07129020 (garlic) since 01/01/2025; 02071411 (breasts) since 01/08/2024;
// 76129020 (aluminium capsules for packaging) since 01/10/2025, new in the table of 10/11/2025.
describe('NCM table (MOC I05-20, 778)', () => {
  it('holds the 10,507 eight-digit codes of the table of 10/11/2025', () => {
    expect(ncmCount()).toBe(10_507);
  });

  it('knows codes in force and their start dates', () => {
    expect(isNcmValid('09012100')).toBe(true);
    expect(isNcmValid('09012100', '2022-04-01')).toBe(true);
    expect(isNcmValid('07129020', '2024-12-31')).toBe(false);
    expect(isNcmValid('07129020', '2025-01-01')).toBe(true);
    expect(isNcmValid('02071411', '2026-03-01')).toBe(true);
    expect(isNcmValid('76129020', '2025-09-30')).toBe(false);
    expect(isNcmValid('76129020', '2025-10-01')).toBe(true);
  });

  it('refuses a code that does not exist, and says why', () => {
    expect(isNcmValid('99999999')).toBe(false);
    expect(ncmProblem('99999999')).toMatch(/no heading 9999 exists.*778/);
    expect(ncmProblem('09012199')).toMatch(/heading 0901 exists but not this subitem/);
    expect(ncmProblem('0901210')).not.toBeNull();
  });

  it('leaves 00000000 to MOC I05-10 obs. 3 (items that cannot be classified)', () => {
    expect(ncmProblem('00000000')).toBeNull();
  });
});
