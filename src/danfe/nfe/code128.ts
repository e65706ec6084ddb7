// Code 128 subset C (ISO/IEC 15417): pairs of digits, one symbol each. The DANFE NF-e prints the
// 44-digit access key this way (22 data symbols). Each symbol is 3 bars and 3 spaces, 11 modules
// wide; the stop symbol has a fourth bar (13 modules).

// Element widths (bar, space, bar, space, bar, space) of symbol values 0-102 (ISO/IEC 15417 table 1).
const PATTERNS = [
  '212222', '222122', '222221', '121223', '121322', '131222', '122213', '122312', '132212', '221213',
  '221312', '231212', '112232', '122132', '122231', '113222', '123122', '123221', '223211', '221132',
  '221231', '213212', '223112', '312131', '311222', '321122', '321221', '312212', '322112', '322211',
  '212123', '212321', '232121', '111323', '131123', '131321', '112313', '132113', '132311', '211313',
  '231113', '231311', '112133', '112331', '132131', '113123', '113321', '133121', '313121', '211331',
  '231131', '213113', '213311', '213131', '311123', '311321', '331121', '312113', '312311', '332111',
  '314111', '221411', '431111', '111224', '111422', '121124', '121421', '141122', '141221', '112214',
  '112412', '122114', '122411', '142112', '142211', '241211', '221114', '413111', '241112', '134111',
  '111242', '121142', '121241', '114212', '124112', '124211', '411212', '421112', '421211', '212141',
  '214121', '412121', '111143', '111341', '131141', '114113', '114311', '411113', '411311', '113141',
  '114131', '311141', '411131',
];
const START_C = { value: 105, pattern: '211232' };
const STOP = '2331112';

export interface Code128Symbol {
  /** Element widths in modules, alternating bar and space, starting with a bar. */
  widths: number[];
  /** Total width in modules (without the quiet zones, 10 modules each side). */
  modules: number;
}

/** Encodes an even number of digits (at least 2) in subset C with its modulo-103 check symbol. */
export function code128c(digits: string): Code128Symbol {
  if (!/^(\d\d)+$/.test(digits)) throw new Error('Code 128 subset C encodes an even, non-zero number of digits');
  const values: number[] = [];
  for (let i = 0; i < digits.length; i += 2) values.push(Number(digits.slice(i, i + 2)));
  const check = values.reduce((sum, v, i) => sum + v * (i + 1), START_C.value) % 103;
  const patterns = [START_C.pattern, ...values.map((v) => PATTERNS[v]!), PATTERNS[check]!, STOP];
  const widths = patterns.flatMap((p) => [...p].map(Number));
  return { widths, modules: widths.reduce((a, b) => a + b, 0) };
}

/** Exposed for the table's self-check (every symbol 11 modules, all distinct). */
export const CODE128_PATTERNS: readonly string[] = PATTERNS;
