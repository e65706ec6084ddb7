// The HTML receipt's style sheet: a roll of paper as wide as the printer's, the lines in a monospaced
// font sized so font A's columns (48 on 80 mm, 32 on 58 mm) fill the printable width, as on a thermal
// printer. Sizes are in millimetres, so the page height can be counted from the lines.

export const HTML_GEOMETRY = {
  80: { printableMm: 72, qrMm: 35 },
  58: { printableMm: 48, qrMm: 30 },
} as const;

/** One text line's height; a rule takes one line too. */
export const LINE_MM = 3.6;
export const LARGE_LINE_MM = 5;
const FONT_MM = 2.45;
export const PAD_MM = 4;

/**
 * `@page` takes the roll width and the length of the longest copy (a roll has no page length; CSS
 * has no "as long as the content" page size, so the length is counted) and every copy starts a page.
 */
export function receiptCss(roll: 80 | 58, pageHeightMm: number): string {
  const { printableMm } = HTML_GEOMETRY[roll];
  const side = (roll - printableMm) / 2;
  return [
    `@page { size: ${roll}mm ${Math.ceil(pageHeightMm)}mm; margin: 0 }`,
    'html, body { margin: 0; padding: 0; background: #fff; color: #000 }',
    `.copy { box-sizing: border-box; width: ${roll}mm; padding: ${PAD_MM}mm ${side}mm; break-after: page; page-break-after: always }`,
    '.copy:last-child { break-after: auto; page-break-after: auto }',
    `.l { font: ${FONT_MM}mm/${LINE_MM}mm "DejaVu Sans Mono", "Liberation Mono", "Courier New", monospace; white-space: pre-wrap; overflow-wrap: anywhere; margin: 0 }`,
    // Double height as the printer's GS ! 1: taller, same columns (a larger font would wrap the line).
    `.c { text-align: center } .b { font-weight: bold } .g { line-height: ${LARGE_LINE_MM}mm; transform: scaleY(1.4) }`,
    // A rule takes exactly one line: half above the dashes, half below.
    `.r { box-sizing: border-box; height: ${LINE_MM / 2}mm; border: 0; border-top: 0.3mm dashed #000; margin: ${LINE_MM / 2}mm 0 0 }`,
    '.qr { display: block; margin: 2mm auto }',
  ].join('\n');
}
