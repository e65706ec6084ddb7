// Division V prints the state's consultation address for the consumer to type. A line break inside
// a word ("NFCeConsultaPublic" / "a") reads as two words or as a wrong address, so the address is
// broken only after '/', '?' or '.', and the type shrinks when one piece is wider than the roll.

/** Width in points of `text` at `size` (the document's Helvetica metrics). */
export type MeasureAt = (text: string, size: number) => number;

// An address shrunk further than this reads worse than the same address on two lines.
const ONE_LINE_MIN_SHARE = 0.9;

/** "https://", "www.", "sp.", "gov.", "br/", "NFCeConsultaPublica": each piece ends where a line may. */
export function urlPieces(url: string): string[] {
  return url.match(/[^/?.]*(?:[/?.]+|$)/g)?.filter(Boolean) ?? [url];
}

/** Largest size up to `size`, in tenths of a point, at which `text` is at most `width` wide. */
function sizeToFit(text: string, measure: MeasureAt, width: number, size: number): number {
  const full = measure(text, size);
  if (full <= width) return size;
  let fitted = Math.floor(((size * width) / full) * 10) / 10;
  // Kerning and rounding can leave it a hair too wide.
  while (fitted > 0.1 && measure(text, fitted) > width) fitted = Math.round(fitted * 10 - 1) / 10;
  return fitted;
}

/**
 * The address on one line when it fits at `size` or slightly smaller; otherwise as few lines as
 * fit, each ending after / ? or ., at `size` or the size at which the widest piece fits (not under
 * `minSize`). A piece wider than the line even at `minSize` is left whole; no published address
 * comes near (the widest, GO's "consulta-nfc-e-homologacao", takes half the 58 mm line).
 */
export function urlLines(url: string, measure: MeasureAt, width: number, size: number, minSize: number): { lines: string[]; size: number } {
  const oneLine = sizeToFit(url, measure, width, size);
  if (oneLine >= Math.max(minSize, size * ONE_LINE_MIN_SHARE)) return { lines: [url], size: oneLine };
  const pieces = urlPieces(url);
  const fitted = Math.max(minSize, Math.min(...pieces.map((piece) => sizeToFit(piece, measure, width, size))));
  const lines: string[] = [];
  let line = '';
  for (const piece of pieces) {
    if (line && measure(line + piece, fitted) > width) {
      lines.push(line);
      line = '';
    }
    line += piece;
  }
  lines.push(line);
  return { lines, size: fitted };
}
