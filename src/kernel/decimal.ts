// Fixed-point arithmetic for fiscal values. Every amount is an integer of a known scale
// (cents = scale 2, quantities = scale 4, unit prices = scale 10, rates = scale 4) so that
// totals never pick up binary floating-point error (rejections 564/610/767 come from that).

/** Number of decimal places a JSON number carries, or Infinity when it is not finite. */
export function decimalPlaces(value: number): number {
  if (!Number.isFinite(value)) return Infinity;
  for (let places = 0; places <= 15; places++) {
    if (Number(value.toFixed(places)) === value) return places;
  }
  return Infinity;
}

/** Converts a JSON number with at most `scale` decimals to an integer of that scale. */
export function toScaled(value: number, scale: number): bigint {
  const text = Math.abs(value).toFixed(scale);
  const digits = BigInt(text.replace('.', ''));
  return value < 0 ? -digits : digits;
}

/** Cents of a money amount (at most 2 decimals, validated beforehand). */
export function toCents(value: number): number {
  return Number(toScaled(value, 2));
}

/** a * b / divisor rounded half away from zero (ABNT NBR 5891 rounds half up for positive values). */
export function mulDivRound(a: bigint, b: bigint, divisor: bigint): bigint {
  const product = a * b;
  const negative = product < 0n !== divisor < 0n;
  const absProduct = product < 0n ? -product : product;
  const absDivisor = divisor < 0n ? -divisor : divisor;
  const rounded = (absProduct * 2n + absDivisor) / (absDivisor * 2n);
  return negative ? -rounded : rounded;
}

/** cents * rate% where the rate is scale 4 (12.5% = 125000n), rounded to cents. */
export function percentOf(cents: number, rate4: number): number {
  return Number(mulDivRound(BigInt(cents), BigInt(rate4), 1_000_000n));
}

/** Writes an integer of the given scale as a decimal string with exactly `scale` places. */
export function formatScaled(value: bigint | number, scale: number): string {
  const v = BigInt(value);
  const negative = v < 0n;
  const digits = (negative ? -v : v).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : digits.slice(0, -scale) + '.' + digits.slice(-scale);
  return negative ? '-' + text : text;
}

/** Money in the layout's TDec_1302 form: "150.00". */
export function formatCents(cents: number): string {
  return formatScaled(cents, 2);
}

/**
 * A scaled value written with between `minPlaces` and its scale decimals (trailing zeros
 * dropped down to minPlaces): rates are TDec_0302a04 (2 to 4 places), unit prices TDec_1110v.
 */
export function formatTrimmed(value: bigint | number, scale: number, minPlaces: number): string {
  let text = formatScaled(value, scale);
  const keep = text.length - scale + minPlaces;
  while (text.length > keep && text.endsWith('0')) text = text.slice(0, -1);
  return text.endsWith('.') ? text.slice(0, -1) : text;
}

/** Rate (scale 4) in TDec_0302a04 form: "18.00", "12.3456". */
export function formatRate(rate4: number): string {
  return formatTrimmed(rate4, 4, 2);
}

/**
 * Splits `total` cents over `weights` in proportion, each share rounded down, the remainder
 * going to the largest weight (first one on ties), so the shares add up exactly to `total`.
 * When `total` fits within the weights no share exceeds its own weight: the remainder spills to
 * the next largest weights instead (a sale discount over 100 items of R$ 0.10 gave one item a
 * discount above its value and so a negative vBC, refused by the XSD).
 */
export function spreadProportionally(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum <= 0 || total === 0) return weights.map(() => 0);
  const shares = weights.map((w) => Number((BigInt(total) * BigInt(w)) / BigInt(sum)));
  let rest = total - shares.reduce((a, b) => a + b, 0);
  const byWeight = weights.map((_, i) => i).sort((a, b) => weights[b]! - weights[a]! || a - b);
  if (total > sum) {
    shares[byWeight[0]!]! += rest;
    return shares;
  }
  for (const i of byWeight) {
    if (rest === 0) break;
    const give = Math.min(rest, weights[i]! - shares[i]!);
    shares[i]! += give;
    rest -= give;
  }
  return shares;
}
