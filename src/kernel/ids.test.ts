import { describe, expect, it } from 'vitest';
import { newId, randomBase62 } from './ids.js';

describe('ids', () => {
  it('are a prefix and 20 base62 characters, never repeated', () => {
    const ids = Array.from({ length: 5_000 }, () => newId('nfce'));
    for (const id of ids) expect(id).toMatch(/^nfce_[0-9A-Za-z]{20}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('use every character of the alphabet about equally (no bias toward the first ones)', () => {
    const counts = new Map<string, number>();
    for (const c of randomBase62(124_000)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 2,000 expected each; a modulo bias of 256 % 62 would put the first 8 near 2,300.
    for (const n of counts.values()) expect(Math.abs(n - 2000)).toBeLessThan(250);
  });
});
