import { describe, expect, it } from 'vitest';
import { nthNumber, takeNumbers, voidRange } from './number-skips.js';

describe('numbers voided ahead of the counter', () => {
  it('a range ahead keeps the counter and is stepped over', () => {
    const c = voidRange({ next: 14, skips: [] }, 950, 952);
    expect(c).toEqual({ next: 14, skips: [[950, 952]] });
    expect(takeNumbers({ next: 948, skips: c.skips }, 3)).toEqual({ numbers: [948, 949, 953], after: { next: 954, skips: [] } });
  });

  it('a range reaching the counter moves it past the range and past a voided range it then lands in', () => {
    expect(voidRange({ next: 14, skips: [[20, 25]] }, 10, 19)).toEqual({ next: 26, skips: [] });
    expect(voidRange({ next: 14, skips: [[30, 31]] }, 14, 14)).toEqual({ next: 15, skips: [[30, 31]] });
  });

  it('a range behind the counter changes nothing', () => {
    const c = { next: 14, skips: [[20, 21]] as Array<[number, number]> };
    expect(voidRange(c, 1, 13)).toBe(c);
  });

  it('overlapping and adjacent ranges merge, others stay sorted', () => {
    let c = voidRange({ next: 1, skips: [] }, 50, 60);
    c = voidRange(c, 10, 12);
    c = voidRange(c, 61, 65);
    c = voidRange(c, 55, 70);
    c = voidRange(c, 100, 100);
    expect(c.skips).toEqual([[10, 12], [50, 70], [100, 100]]);
  });

  it('the k-th next number agrees with taking k + 1 numbers', () => {
    const c = { next: 5, skips: [[7, 8], [10, 10], [12, 20]] as Array<[number, number]> };
    const { numbers } = takeNumbers(c, 8);
    expect(numbers).toEqual([5, 6, 9, 11, 21, 22, 23, 24]);
    expect(numbers.map((_, k) => nthNumber(c, k))).toEqual(numbers);
  });
});
