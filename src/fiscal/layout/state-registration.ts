// State registration (Inscrição Estadual, IE) check digits of the 27 states, as SINTEGRA's
// "Conferência de Inscrições Estaduais" describes them; docs/fiscal/state-registration.md has each
// state's algorithm in words. Pure: no I/O. MOC C17-20 (209, issuer) and E17-50 (210, recipient) reject
// an IE "inválida para a UF: erro no tamanho, na composição da IE, ou no dígito verificador", and
// footnote (*2) says leading zeros are not significant: the length is normalized before the check.

type Digits = number[];
type Check = (d: Digits, raw: string) => boolean;

const toDigits = (s: string): Digits => [...s].map(Number);
const weighted = (d: Digits, weights: readonly number[], from = 0) => weights.reduce((sum, w, i) => sum + w * d[from + i]!, 0);
const range = (hi: number, lo: number) => Array.from({ length: hi - lo + 1 }, (_, i) => hi - i);
/** 11 - (sum mod 11), 0 when that gives 10 or 11 (the most common SINTEGRA rule). */
const mod11 = (sum: number) => (sum % 11 < 2 ? 0 : 11 - (sum % 11));
const W9 = range(9, 2); // 9,8,7,6,5,4,3,2

/** 9 digits, one check digit over 8 with weights 9..2, 11 - remainder (0 for 10/11). */
const nineMod11: Check = (d) => d[8] === mod11(weighted(d, W9));

const AC_W1 = [4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const AC_W2 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
/** AC and DF: 13 digits, two check digits over 11 and 12 digits (weights from 2 up to 9, restarting). */
const twoOver13: Check = (d) => d[11] === mod11(weighted(d, AC_W1)) && d[12] === mod11(weighted(d, AC_W2));

/** AL and RN: (sum x 10) mod 11, 10 -> 0. */
const times10 = (d: Digits, n: number) => {
  const r = (weighted(d, range(n + 1, 2)) * 10) % 11;
  return d[n] === (r === 10 ? 0 : r);
};

function ap(d: Digits): boolean {
  const base = Number(d.slice(0, 8).join(''));
  // Ranges of the first 8 digits decide the constant p added to the sum and the digit d used for 11.
  const [p, dd] = base <= 3017000 ? [5, 0] : base <= 3019022 ? [9, 1] : [0, 0];
  const r = 11 - ((p + weighted(d, W9)) % 11);
  return d[8] === (r === 10 ? 0 : r === 11 ? dd : r);
}

function am(d: Digits): boolean {
  const sum = weighted(d, W9);
  return d[8] === (sum < 11 ? 11 - sum : mod11(sum));
}

/** BA: modulus 10 or 11 by the first (8 digits) or second (9 digits) digit; the last digit is computed first. */
function ba(d: Digits): boolean {
  const n = d.length; // 8 or 9
  const base = n - 2;
  const mod = [6, 7, 9].includes(n === 8 ? d[0]! : d[1]!) ? 11 : 10;
  const dv = (sum: number) => (mod === 10 ? (10 - (sum % 10)) % 10 : mod11(sum));
  const second = dv(weighted(d, range(base + 1, 2)));
  const first = dv(weighted([...d.slice(0, base), second], range(base + 2, 2)));
  return d[n - 1] === second && d[n - 2] === first;
}

function go(d: Digits): boolean {
  const base = Number(d.slice(0, 8).join(''));
  if (base === 11094402) return d[8] === 0 || d[8] === 1; // SINTEGRA: this one accepts both
  const r = weighted(d, W9) % 11;
  const dv = r === 0 ? 0 : r === 1 ? (base >= 10103105 && base <= 10119997 ? 1 : 0) : 11 - r;
  return d[8] === dv;
}

/** MG: first digit by the "soma dos algarismos" rule over the IE with a 0 after the municipality code. */
function mg(d: Digits): boolean {
  const withZero = [...d.slice(0, 3), 0, ...d.slice(3, 11)];
  const sum = withZero.reduce((s, x, i) => s + [...String(x * (i % 2 === 0 ? 1 : 2))].reduce((a, c) => a + Number(c), 0), 0);
  const first = (10 - (sum % 10)) % 10;
  const second = mod11(weighted([...d.slice(0, 11), first], [3, 2, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]));
  return d[11] === first && d[12] === second;
}

const pr: Check = (d) => d[8] === mod11(weighted(d, [3, 2, 7, 6, 5, 4, 3, 2])) && d[9] === mod11(weighted(d, [4, 3, 2, 7, 6, 5, 4, 3, 2]));

function pe(d: Digits): boolean {
  if (d.length === 9) return d[7] === mod11(weighted(d, range(8, 2))) && d[8] === mod11(weighted(d, W9));
  // Former CACEPE registration (14 digits): 11 - remainder, minus 10 when above 9.
  const r = 11 - (weighted(d, [5, 4, 3, 2, 1, 9, 8, 7, 6, 5, 4, 3, 2]) % 11);
  return d[13] === (r > 9 ? r - 10 : r);
}

const rj: Check = (d) => d[7] === mod11(weighted(d, [2, 7, 6, 5, 4, 3, 2]));
const rs: Check = (d) => d[9] === mod11(weighted(d, [2, 9, 8, 7, 6, 5, 4, 3, 2]));
function ro(d: Digits): boolean {
  const r = 11 - (weighted(d, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]) % 11);
  return d[13] === (r >= 10 ? r - 10 : r);
}
const rr: Check = (d) => d[8] === weighted(d, range(8, 1).reverse()) % 9;

/** SP: the 9th and 12th digits are the last digit of (weighted sum mod 11); rural producers start with P. */
function sp(d: Digits, raw: string): boolean {
  const lastDigit = (sum: number) => (sum % 11) % 10;
  const w1 = [1, 3, 4, 5, 6, 7, 8, 10];
  if (raw.startsWith('P')) return d[8] === lastDigit(weighted(d, w1));
  return d[8] === lastDigit(weighted(d, w1)) && d[11] === lastDigit(weighted(d, [3, 2, 10, 9, 8, 7, 6, 5, 4, 3, 2]));
}

/** TO: 9 digits, or the former 11 whose 3rd-4th digits (01, 02, 03 or 99) stay out of the sum. */
function to(d: Digits): boolean {
  if (d.length === 9) return nineMod11(d, '');
  if (![1, 2, 3, 99].includes(d[2]! * 10 + d[3]!)) return false;
  return d[10] === mod11(weighted([...d.slice(0, 2), ...d.slice(4, 10)], W9));
}

interface StateRule {
  /** Accepted lengths, shortest first. */
  lengths: number[];
  /** Fixed leading digits SINTEGRA gives as part of the registration's composition, and their words. */
  prefix?: RegExp;
  starts?: string;
  check: Check;
}

const RULES: Record<string, StateRule> = {
  AC: { lengths: [13], prefix: /^01/, starts: '01', check: twoOver13 },
  AL: { lengths: [9], prefix: /^24/, starts: '24', check: (d) => times10(d, 8) },
  AP: { lengths: [9], prefix: /^03/, starts: '03', check: ap },
  AM: { lengths: [9], check: am },
  BA: { lengths: [8, 9], check: ba },
  CE: { lengths: [9], check: nineMod11 },
  DF: { lengths: [13], check: twoOver13 },
  ES: { lengths: [9], check: nineMod11 },
  GO: { lengths: [9], prefix: /^(10|11|2[0-9])/, starts: '10, 11 or 20-29', check: go },
  MA: { lengths: [9], prefix: /^12/, starts: '12', check: nineMod11 },
  MT: { lengths: [11], check: (d) => d[10] === mod11(weighted(d, [3, 2, 9, 8, 7, 6, 5, 4, 3, 2])) },
  MS: { lengths: [9], check: nineMod11 },
  MG: { lengths: [13], check: mg },
  PA: { lengths: [9], check: nineMod11 },
  PB: { lengths: [9], check: nineMod11 },
  PR: { lengths: [10], check: pr },
  PE: { lengths: [9, 14], check: pe },
  PI: { lengths: [9], check: nineMod11 },
  RJ: { lengths: [8], check: rj },
  RN: { lengths: [9, 10], prefix: /^20/, starts: '20', check: (d) => times10(d, d.length - 1) },
  RS: { lengths: [10], check: rs },
  RO: { lengths: [14], check: ro },
  RR: { lengths: [9], prefix: /^24/, starts: '24', check: rr },
  SC: { lengths: [9], check: nineMod11 },
  SP: { lengths: [12], check: sp },
  SE: { lengths: [9], check: nineMod11 },
  TO: { lengths: [9, 11], check: to },
};

export const IE_STATES = Object.keys(RULES);

/**
 * Why `ie` (digits only; SP rural producers may start with P) is not a state registration of `uf`, or
 * null when it is. `ISENTO` is not a registration: the callers decide where it is allowed (MOC C17-30,
 * E16a). Lengths are normalized as MOC footnote (*2) says: leading zeros dropped, then each accepted
 * length of the state is tried with zeros added back on the left.
 */
export function stateRegistrationProblem(uf: string, ie: string): string | null {
  const rule = RULES[uf];
  if (!rule) return `cannot be checked: ${uf} is not a Brazilian state`;
  const rural = uf === 'SP' && /^P[0-9]{12}$/.test(ie);
  if (!rural && !/^[0-9]+$/.test(ie)) return 'must have digits only';
  const body = rural ? ie.slice(1) : ie.replace(/^0+/, '');
  if (body === '') return 'must not be all zeros';
  const lengths = rural ? [12] : rule.lengths;
  const candidates = lengths.filter((n) => n >= body.length).map((n) => body.padStart(n, '0'));
  if (candidates.length === 0) return `has too many digits for ${uf} (${lengths.join(' or ')})`;
  const composed = rural ? candidates : candidates.filter((c) => !rule.prefix || rule.prefix.test(c));
  if (composed.length === 0) return `is not a ${uf} registration: it must start with ${rule.starts}`;
  return composed.some((c) => rule.check(toDigits(c), rural ? ie : c)) ? null : `has a wrong check digit for ${uf}`;
}

export const isStateRegistrationValid = (uf: string, ie: string) => stateRegistrationProblem(uf, ie) === null;
