import { describe, expect, it } from 'vitest';
import { delaySeconds } from './login-throttle.js';

describe('delaySeconds', () => {
  it('is free up to the threshold, then doubles up to its cap', () => {
    expect([4, 5, 6, 7, 10, 11, 40].map((n) => delaySeconds('email', n, 20))).toEqual([0, 1, 2, 4, 32, 60, 60]);
    expect([19, 20, 21, 28, 29, 1000].map((n) => delaySeconds('ip', n, 20))).toEqual([0, 1, 2, 256, 300, 300]);
    expect(delaySeconds('ip', 500, 1_000_000)).toBe(0);
  });
});
