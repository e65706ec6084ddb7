// The word a typo most likely meant: the closest of `known` to `sent` by edit distance (insertions, deletions,
// substitutions and swaps of neighbours, each costing 1), when it is close enough to be a slip rather than
// another word: at most 1 edit for words of up to 4 letters, 2 up to 8, 3 beyond. Case is ignored.

function distance(a: string, b: string, ceiling: number): number {
  if (Math.abs(a.length - b.length) > ceiling) return ceiling + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      row.push(d);
      best = Math.min(best, d);
    }
    if (best > ceiling) return ceiling + 1;
    prev2 = prev;
    prev = row;
  }
  return prev[b.length]!;
}

/** The one closest known word, or undefined when none is close enough or two are equally close. */
export function closestWord(sent: string, known: readonly string[]): string | undefined {
  if (sent.length === 0 || sent.length > 64) return undefined;
  const s = sent.toLowerCase();
  const ceiling = s.length <= 4 ? 1 : s.length <= 8 ? 2 : 3;
  let found: string | undefined;
  let best = ceiling + 1;
  let tie = false;
  for (const k of known) {
    if (k.length > 64) continue;
    const d = distance(s, k.toLowerCase(), ceiling);
    if (d < best) [best, found, tie] = [d, k, false];
    else if (d === best) tie = true;
  }
  return found !== undefined && !tie && found !== sent ? found : undefined;
}
