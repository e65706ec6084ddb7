// Free text for the XSD type TString: `[!-ÿ]{1}[ -ÿ]*[!-ÿ]{1}|[!-ÿ]{1}`, i.e. only characters
// U+0020-U+00FF, no leading or trailing blank. We normalize whitespace (tabs, line breaks, runs
// of blanks become one space; ends are trimmed) and TRANSLITERATE what has an obvious Latin-1
// spelling (typographic quotes and dashes, letters with accents outside Latin-1 such as "ő").
// Anything else (emoji, CJK, control characters) is REFUSED by validateSale with the field name,
// because silently dropping characters would change what the consumer sees on the receipt.

const TYPOGRAPHIC: Record<string, string> = {
  '\u2018': "'", '\u2019': "'", '\u201A': "'", '\u201B': "'",
  '\u201C': '"', '\u201D': '"', '\u201E': '"', '\u2033': '"', '\u2032': "'",
  '\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2013': '-', '\u2014': '-', '\u2015': '-', '\u2212': '-',
  '\u2026': '...', '\u2022': '-', '\u20AC': 'EUR', '\u2122': 'TM', '\u00A0': ' ', '\u202F': ' ', '\u2009': ' ',
};

/** Latin-1 version of `value`, or null when some character has no acceptable spelling. */
export function toLayoutText(value: string): string | null {
  let out = '';
  for (const ch of value.normalize('NFC')) {
    const code = ch.codePointAt(0)!;
    if (/\s/u.test(ch)) out += ' ';
    else if (code >= 0x20 && code <= 0x7e) out += ch;
    else if (code >= 0xa0 && code <= 0xff) out += ch;
    else if (TYPOGRAPHIC[ch] !== undefined) out += TYPOGRAPHIC[ch];
    else {
      // Drop combining marks only when the base letter is plain Latin ("ő" -> "o").
      const base = ch.normalize('NFD').replace(/\p{M}/gu, '');
      if (base.length > 0 && /^[\x20-\x7e\xa0-\xff]+$/.test(base)) out += base;
      else return null;
    }
  }
  return out.replace(/ {2,}/g, ' ').trim();
}

/** Characters of `value` that toLayoutText cannot represent (for error messages). */
export function unsupportedCharacters(value: string): string[] {
  const bad = new Set<string>();
  for (const ch of value.normalize('NFC')) if (toLayoutText(ch) === null) bad.add(ch);
  return [...bad];
}

/**
 * A character for an error message: its code point (U+202E), and the character itself in quotes
 * when it is visible. Invisible ones (controls, bidi overrides, zero-width) are named by code only,
 * so the message does not reorder or hide the text around it.
 */
export function describeCharacter(ch: string): string {
  const code = `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return /^[\p{C}\p{Z}\p{M}]$/u.test(ch) ? code : `${JSON.stringify(ch)} (${code})`;
}

/** Layout text or the original when it cannot be represented (validation reports that case). */
export function layoutText(value: string): string {
  return toLayoutText(value) ?? value;
}
