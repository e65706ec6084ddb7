// pdfkit's standard fonts (Helvetica) encode WinAnsi only; any other character would print as
// garbage bytes. Keep what WinAnsi has, fold accents it lacks, replace the rest with '?'.

// The 0x80-0x9F block of Windows-1252 (curly quotes, dashes, euro, ...).
const CP1252_EXTRAS = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

function encodable(ch: string): boolean {
  const c = ch.codePointAt(0) ?? 0;
  return (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xff) || CP1252_EXTRAS.has(ch);
}

export function winAnsiText(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    if (encodable(ch)) out += ch;
    else if (ch === '\t') out += ' ';
    else if (ch === '\n' || ch === '\r') out += ch;
    else {
      const folded = ch.normalize('NFKD').replace(/\p{M}/gu, '');
      out += folded && [...folded].every(encodable) ? folded : '?';
    }
  }
  return out;
}
