/**
 * Numbers voided (inutilização, docs/fiscal/inutilizacao.md) ahead of a series' counter: the counter
 * stays where it is and steps over them when it reaches them, so the numbers before the voided range
 * are still issued in order and no number is left neither issued nor voided. Kept on the counter's row
 * (number_sequences.skips, migration 41) as sorted, disjoint [first, last] ranges, all above the counter,
 * so the statement that moves the counter checks them with it. Pure: no I/O.
 */
export type Skip = [number, number];

/** Where a series' counter stands: its next number and the voided ranges ahead of it. */
export interface Counter {
  next: number;
  skips: Skip[];
}

/** The counter with `next` moved past any voided range it lands in, and ranges behind it dropped. */
export function normalize(c: Counter): Counter {
  let next = c.next;
  const skips: Skip[] = [];
  for (const [first, last] of c.skips) {
    if (last < next) continue;
    if (first <= next) next = last + 1;
    else skips.push([first, last]);
  }
  return { next, skips };
}

/** The counter after the range [from, to] was voided: behind it nothing moves; ahead of it, a range to step over. */
export function voidRange(c: Counter, from: number, to: number): Counter {
  if (to < c.next) return c;
  if (from <= c.next) return normalize({ next: to + 1, skips: c.skips });
  const merged: Skip[] = [];
  let add: Skip = [from, to];
  for (const s of c.skips) {
    if (s[1] + 1 < add[0]) merged.push(s);
    else if (add[1] + 1 < s[0]) {
      merged.push(add);
      add = s;
    } else add = [Math.min(s[0], add[0]), Math.max(s[1], add[1])];
  }
  merged.push(add);
  return normalize({ next: c.next, skips: merged });
}

/** The counter's next `count` numbers, stepping over voided ranges, and where the counter stands after them. */
export function takeNumbers(c: Counter, count: number): { numbers: number[]; after: Counter } {
  let at = normalize(c);
  const numbers: number[] = [];
  for (let i = 0; i < count; i++) {
    numbers.push(at.next);
    at = normalize({ next: at.next + 1, skips: at.skips });
  }
  return { numbers, after: at };
}

/** The counter's `k`-th next number (0 is the next one), stepping over voided ranges. */
export function nthNumber(c: Counter, k: number): number {
  const at = normalize(c);
  let n = at.next;
  for (const [first, last] of at.skips) {
    if (n + k < first) break;
    k -= first - n;
    n = last + 1;
  }
  return n + k;
}

/** Whether `n` is a number inside a voided range ahead of the counter. */
export const isSkipped = (c: Counter, n: number): boolean => c.skips.some(([first, last]) => n >= first && n <= last);
