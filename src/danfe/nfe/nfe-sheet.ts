// Drawing primitives of the DANFE NF-e (A4 portrait): labelled boxes, section titles, wrapped text,
// vector bars. Every string goes through winAnsiText (pdfkit's standard fonts are WinAnsi only).
import { winAnsiText } from '../win-ansi.js';
import { MM } from '../qr-symbol.js';

export type Doc = PDFKit.PDFDocument;
export type Font = 'Helvetica' | 'Helvetica-Bold' | 'Helvetica-Oblique';
export type Align = 'left' | 'center' | 'right';

export const PAGE = { width: 595.28, height: 841.89 };
export const MARGIN = { x: 7 * MM, top: 6 * MM, bottom: 6 * MM };
export const CONTENT_WIDTH = PAGE.width - 2 * MARGIN.x;
/** Height of a labelled field row. */
export const ROW = 7 * MM;
export const LABEL_SIZE = 5;
export const VALUE_SIZE = 8;
/** Height of a section title ("CÁLCULO DO IMPOSTO"). */
export const SECTION_HEIGHT = 3.8 * MM;
const PAD = 1.5;

export interface FieldOptions {
  align?: Align;
  font?: Font;
  size?: number;
}

export class Sheet {
  private font: Font | undefined;
  private size = 0;

  constructor(
    readonly doc: Doc,
    /** Tint of titles (the issuer's colour, made legible). */
    readonly accent: string,
  ) {}

  private use(font: Font, size: number): void {
    if (font !== this.font) this.doc.font((this.font = font));
    if (size !== this.size) this.doc.fontSize((this.size = size));
  }

  width(text: string, font: Font, size: number): number {
    this.use(font, size);
    return this.doc.widthOfString(winAnsiText(text));
  }

  /** One line at (x, y) (top of the line), cut with '…' to fit `width` when given. */
  text(value: string, x: number, y: number, o: { font?: Font; size?: number; width?: number; align?: Align; color?: string } = {}): void {
    const font = o.font ?? 'Helvetica';
    const size = o.size ?? VALUE_SIZE;
    let line = winAnsiText(value.replace(/[\r\n\t]+/g, ' '));
    this.use(font, size);
    if (o.width !== undefined) line = this.fit(line, o.width);
    let left = x;
    if (o.width !== undefined && o.align && o.align !== 'left') {
      const free = o.width - this.doc.widthOfString(line);
      left += o.align === 'center' ? free / 2 : free;
    }
    this.doc.fillColor(o.color ?? '#000000').text(line, left, y, { lineBreak: false });
  }

  private fit(line: string, width: number): string {
    if (this.doc.widthOfString(line) <= width) return line;
    let lo = 0;
    let hi = line.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (this.doc.widthOfString(`${line.slice(0, mid)}…`) <= width) lo = mid;
      else hi = mid - 1;
    }
    return `${line.slice(0, lo)}…`;
  }

  /** Greedy word wrap; words longer than the width are broken. Never more than `maxLines` lines. */
  wrap(value: string, width: number, font: Font, size: number, maxLines = Infinity): string[] {
    this.use(font, size);
    const lines: string[] = [];
    for (const paragraph of winAnsiText(value).split(/\r?\n/)) {
      let line = '';
      for (const word of paragraph.split(/\s+/).filter(Boolean)) {
        const candidate = line ? `${line} ${word}` : word;
        if (this.doc.widthOfString(candidate) <= width) {
          line = candidate;
          continue;
        }
        if (line) lines.push(line);
        line = word;
        while (this.doc.widthOfString(line) > width && line.length > 1) {
          let cut = line.length - 1;
          while (cut > 1 && this.doc.widthOfString(line.slice(0, cut)) > width) cut--;
          lines.push(line.slice(0, cut));
          line = line.slice(cut);
        }
        if (lines.length >= maxLines) return lines.slice(0, maxLines);
      }
      if (line) lines.push(line);
      if (lines.length >= maxLines) return lines.slice(0, maxLines);
    }
    return lines;
  }

  box(x: number, y: number, w: number, h: number, lineWidth = 0.5): void {
    this.doc.lineWidth(lineWidth).strokeColor('#000000').rect(x, y, w, h).stroke();
  }

  /** A box with its label at the top-left in small capitals and the value below it. */
  field(x: number, y: number, w: number, h: number, label: string, value: string | undefined, o: FieldOptions = {}): void {
    this.box(x, y, w, h);
    this.text(label.toUpperCase(), x + PAD, y + 1.2, { size: LABEL_SIZE, width: w - 2 * PAD });
    if (value) {
      const size = o.size ?? VALUE_SIZE;
      this.text(value, x + PAD, y + h - size - 2, { font: o.font ?? 'Helvetica', size, width: w - 2 * PAD, align: o.align ?? 'left' });
    }
  }

  /** A row of fields filling the content width; widths are in mm and must sum to it. */
  fields(y: number, cells: Array<[number, string, string | undefined, FieldOptions?]>, h = ROW): number {
    let x = MARGIN.x;
    for (const [wMm, label, value, o] of cells) {
      this.field(x, y, wMm * MM, h, label, value, o);
      x += wMm * MM;
    }
    return y + h;
  }

  /** Section title above a group of boxes ("DESTINATÁRIO / REMETENTE"). Returns the y below it. */
  section(y: number, title: string): number {
    this.text(title, MARGIN.x, y + 3, { font: 'Helvetica-Bold', size: 6.5, color: this.accent });
    return y + SECTION_HEIGHT;
  }

  /** Bars as filled rectangles in one path: module widths alternate bar, space, bar... */
  bars(widths: readonly number[], x: number, y: number, module: number, height: number): void {
    let at = x;
    widths.forEach((w, i) => {
      if (i % 2 === 0) this.doc.rect(at, y, w * module, height);
      at += w * module;
    });
    this.doc.fillColor('#000000').fill();
  }
}
