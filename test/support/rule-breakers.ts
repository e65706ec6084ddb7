import { sliceElement } from '../../src/fiscal/sefaz/xml-slice.js';
import type { EnforcedRule } from '../../src/authority-sim/enforced-rule.js';

// The breaker table of the fiscal-truth property (test/fiscal-truth-property.test.ts): for every
// rule the simulator enforces (authority-sim/enforced-rules.ts), one entry saying how a random valid
// sale is made to break exactly that rule, and who must notice:
//   request  - the gateway refuses the broken request with a 422 naming `field`, `rule` = the rule id;
//   document - the request cannot break it (the gateway computes or always writes the value): the
//              built XML is edited and the simulator's rules must answer `code`;
//   excluded - the rule needs the authority's own state (its records, an outage) or is shadowed by
//              another rule the same document always breaks first: `why` says which.
// Adding a rule to the simulator = adding its line to enforced-rules.ts AND one entry here (the
// table test demands it). `C` is a random valid case (a request plus its context), `D` its document.

export interface RequestBreaker<C> {
  kind: 'request';
  rule: string;
  code: number | string;
  /** Whether this case can be broken this way (the rule's condition can hold for it). */
  applies?: (c: C) => boolean;
  /** Breaks the (cloned) request in place; returns the request field the refusal must name. */
  break: (c: C) => string;
}

export interface DocumentBreaker<C, D, B> {
  kind: 'document';
  rule: string;
  code: number | string;
  /** Why a request cannot break it. */
  why: string;
  applies?: (c: C, d: D) => boolean;
  break: (d: D, c: C) => B;
  /** The rule is the signature's: check it (others skip it, their document being edited after signing). */
  signature?: boolean;
}

export interface Exclusion {
  kind: 'excluded';
  rule: string;
  code: number | string;
  why: string;
}

export type Breaker<C, D, B> = RequestBreaker<C> | DocumentBreaker<C, D, B> | Exclusion;

/** The entries whose rule/code no enforced rule has, and the enforced rules with no or several entries. */
export function tableProblems(enforced: readonly EnforcedRule[], table: readonly { rule: string; code: number | string }[]): string[] {
  const key = (e: { rule: string; code: number | string }) => `${e.rule}/${e.code}`;
  const enforcedKeys = new Set(enforced.map(key));
  const problems = table.filter((b) => !enforcedKeys.has(key(b))).map((b) => `${key(b)}: not an enforced rule`);
  for (const e of enforced) {
    const n = table.filter((b) => key(b) === key(e)).length;
    if (n !== 1) problems.push(`${key(e)}: ${n} entries (one breaker or exclusion needed)`);
  }
  return problems;
}

/**
 * Picks, among the breakers that apply, the one drawn least so far (ties: `pick`), so that a few
 * hundred cases draw every breaker; counts the draw. Null when none applies.
 */
export function drawBreaker<T extends { rule: string; code: number | string }>(candidates: readonly T[], counts: Map<string, number>, pick: number): T | null {
  if (candidates.length === 0) return null;
  const count = (b: T) => counts.get(`${b.rule}/${b.code}`) ?? 0;
  const least = Math.min(...candidates.map(count));
  const pool = candidates.filter((b) => count(b) === least);
  const chosen = pool[pick % pool.length]!;
  counts.set(`${chosen.rule}/${chosen.code}`, least + 1);
  return chosen;
}

// XML edits: `path` holds local names, each searched inside the element found before.

/** `xml` with the first element at `path` replaced by `edit(outer)`. */
export function editAt(xml: string, path: readonly string[], edit: (outer: string) => string): string {
  let start = 0;
  let scope = xml;
  for (const name of path) {
    const s = sliceElement(scope, name);
    if (!s) throw new Error(`no ${path.join('/')} in the document`);
    start += s.start;
    scope = s.outer;
  }
  return xml.slice(0, start) + edit(scope) + xml.slice(start + scope.length);
}

/** The text of the element at `path` replaced by `value(old)`. */
export function setText(xml: string, path: readonly string[], value: (old: string) => string): string {
  return editAt(xml, path, (outer) => outer.replace(/>([^<]*)</, (_, old: string) => `>${value(old)}<`));
}

export function textAt(xml: string, path: readonly string[]): string | null {
  let scope: string | undefined = xml;
  for (const name of path) scope = scope === undefined ? undefined : sliceElement(scope, name)?.outer;
  return scope === undefined ? null : (/>([^<]*)</.exec(scope)?.[1] ?? '');
}

/** A money text plus one cent. */
export const plusCent = (v: string) => ((Math.round(Number(v) * 100) + 1) / 100).toFixed(2);

/** The last digit of a text changed (a check digit made wrong). */
export const otherLastDigit = (v: string) => v.slice(0, -1) + ((Number(v.at(-1)) + 1) % 10);
