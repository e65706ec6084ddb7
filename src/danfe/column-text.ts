// Text laid out in character columns, as a thermal printer's font A prints it (ESC/POS) and as the
// HTML receipt shows it in a monospaced font: 48 columns on an 80 mm roll, 32 on a 58 mm one.
import { urlPieces } from './url-lines.js';

export type Columns = 48 | 32;

/** Font A columns of each roll width (72 mm and 48 mm printable at 8 dots/mm, 12-dot characters). */
export function columnsOf(roll: 80 | 58): Columns {
  return roll === 80 ? 48 : 32;
}

function chunk(word: string, width: number): string[] {
  const parts: string[] = [];
  for (let i = 0; i < word.length; i += width) parts.push(word.slice(i, i + width));
  return parts;
}

/** Words to lines of at most `width` characters; a word wider than a line is cut where it must. */
export function wrapText(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.replace(/\s+/g, ' ').trim().split(' ')) {
    if (!word) continue;
    if (line && line.length + 1 + word.length <= width) {
      line += ` ${word}`;
      continue;
    }
    if (line) lines.push(line);
    const pieces = chunk(word, width);
    line = pieces.pop() ?? '';
    lines.push(...pieces);
  }
  if (line || lines.length === 0) lines.push(line);
  return lines;
}

/**
 * The consultation address broken only after '/', '?' or '.', as the PDF does (url-lines.ts): a break
 * inside a word reads as two words or a wrong address. A piece wider than the line is cut.
 */
export function wrapUrl(url: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const piece of urlPieces(url).flatMap((p) => chunk(p, width))) {
    if (line && line.length + piece.length > width) {
      lines.push(line);
      line = '';
    }
    line += piece;
  }
  if (line || lines.length === 0) lines.push(line);
  return lines;
}

/**
 * "Label ...... value" on one line; when both do not fit with a blank between them, the label
 * wraps and the value goes flush right on a line of its own.
 */
export function pairLines(label: string, value: string, width: number): string[] {
  if (label.length + 1 + value.length <= width) return [label + value.padStart(width - label.length)];
  return [...wrapText(label, width), ...wrapText(value, width).map((v) => v.padStart(width))];
}
