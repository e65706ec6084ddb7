// Text for the printer in code page PC860 (Portuguese), selected with ESC t 3.
//
// Why PC860 rather than WPC1252 (ESC t 16) or PC858 (ESC t 19): n = 3 means PC860 on every
// Epson-compatible printer since the first TM models, including the Brazilian makes points of sale
// use (Bematech, Elgin, Daruma, Epson, Tanca, Sweda, Diebold); WPC1252 and PC858 are missing from many
// of them or sit at other numbers, and a wrong table prints garbage on a fiscal document. PC860 holds
// every letter Portuguese writes (ã õ ç, acute, grave and circumflex vowels, ü, º ª), upper and lower.
// What it lacks degrades to the unaccented letter (ñ is there; ë -> e, ŝ -> s), typographic punctuation
// to its ASCII form, anything else to '?': never to another table's byte.

/** ESC t n: n of PC860 (Portuguese). */
export const PC860 = 3;

// Bytes 0x80-0xAF of PC860, then the few symbols of 0xE0-0xFF a receipt may hold.
const HIGH = 'ÇüéâãàÁçêÊèÍÔìÃÂÉÀÈôõòÚùÌÕÜ¢£Ù₧ÓáíóúñÑªº¿Ò¬½¼¡«»';
const SYMBOLS: ReadonlyArray<[string, number]> = [['ß', 0xe1], ['µ', 0xe6], ['±', 0xf1], ['÷', 0xf6], ['°', 0xf8], ['·', 0xfa], ['²', 0xfd]];
const TABLE = new Map<string, number>([...[...HIGH].map((ch, i): [string, number] => [ch, 0x80 + i]), ...SYMBOLS]);

// Typographic characters keyboards and product registers bring in, as the ASCII a till slip shows.
const ASCII_FORMS: Readonly<Record<string, string>> = {
  '‘': "'", '’': "'", '‚': "'", '“': '"', '”': '"', '„': '"', '–': '-', '—': '-', '…': '...', '€': 'EUR',
  '\u00a0': ' ', '\t': ' ', '×': 'x', '•': '*', '™': 'TM', '®': '(R)', '©': '(C)', '¹': '1', '³': '3',
};

function printable(ch: string): boolean {
  const c = ch.codePointAt(0) ?? 0;
  return (c >= 0x20 && c <= 0x7e) || TABLE.has(ch);
}

/** One character as PC860 has it: itself, its unaccented letters, its ASCII form, or '?'. */
function fold(ch: string): string {
  if (printable(ch)) return ch;
  if ((ch.codePointAt(0) ?? 0) < 0x20) return ' '; // control characters never reach the printer as commands
  const ascii = ASCII_FORMS[ch];
  if (ascii !== undefined) return ascii;
  // NFKD splits a letter from its marks (ë -> e + ¨) and folds compatibility forms (ﬁ -> fi, ² -> 2).
  const folded = ch.normalize('NFKD').replace(/\p{M}/gu, '');
  return folded && [...folded].every(printable) ? folded : '?';
}

/**
 * Text as PC860 prints it, one character per printed column: what the receipt lays out in columns
 * (receipt-text.ts), so a fallback longer than its character ("€" -> "EUR") never overflows a line.
 */
export function pc860Text(text: string): string {
  return [...text.normalize('NFC')].map(fold).join('');
}

/** A line of text as PC860 bytes. */
export function encodePc860(text: string): Buffer {
  return Buffer.from([...pc860Text(text)].map((ch) => (ch.codePointAt(0)! <= 0x7e ? ch.codePointAt(0)! : TABLE.get(ch)!)));
}
