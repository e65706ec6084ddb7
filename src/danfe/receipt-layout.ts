// A one-column receipt laid out top to bottom into a display list, so the page height is known
// before the PDF page exists: a thermal receipt is a single page as long as its content.
import type { QrSymbol } from './qr-symbol.js';
import { winAnsiText } from './win-ansi.js';

export type FontName = 'Helvetica' | 'Helvetica-Bold' | 'Helvetica-Oblique';
export type Align = 'left' | 'center' | 'right';

export interface TextStyle {
  size: number;
  font?: FontName;
  align?: Align;
  color?: string;
}

/** Font metrics, taken from the PDF document that will draw the text. */
export interface TextMeasure {
  width(text: string, font: FontName, size: number): number;
}

export type DrawOp =
  | { kind: 'text'; x: number; y: number; text: string; font: FontName; size: number; color: string }
  | { kind: 'rule'; x: number; y: number; width: number; color: string; dashed: boolean }
  | { kind: 'frame'; x: number; y: number; width: number; height: number; color: string }
  | { kind: 'image'; x: number; y: number; width: number; height: number; data: Buffer }
  | { kind: 'qr'; x: number; y: number; module: number; symbol: QrSymbol };

export interface Cell {
  text: string;
  /** Width in points; the cell wraps inside it. */
  width: number;
  align?: Align;
}

const LINE_FACTOR = 1.22;
const INK = '#000000';

export class ReceiptLayout {
  y: number;

  constructor(
    private readonly measure: TextMeasure,
    readonly left: number,
    readonly width: number,
    top: number,
    readonly ops: DrawOp[] = [],
  ) {
    this.y = top;
  }

  /** A narrower column from the current line (text beside the logo); returns its bottom. */
  column(left: number, width: number, draw: (column: ReceiptLayout) => void): number {
    const column = new ReceiptLayout(this.measure, left, width, this.y, this.ops);
    draw(column);
    return column.y;
  }

  textWidth(text: string, style: TextStyle): number {
    return this.measure.width(text, style.font ?? 'Helvetica', style.size);
  }

  lineHeight(size: number): number {
    return size * LINE_FACTOR;
  }

  gap(points: number): this {
    this.y += points;
    return this;
  }

  /** Greedy word wrap; words longer than the width are cut (item codes, URLs). */
  wrap(text: string, font: FontName, size: number, width: number): string[] {
    const lines: string[] = [];
    for (const paragraph of winAnsiText(text).split(/\r?\n/)) {
      let line = '';
      for (const word of paragraph.split(/\s+/).filter(Boolean)) {
        const candidate = line ? `${line} ${word}` : word;
        if (this.measure.width(candidate, font, size) <= width) {
          line = candidate;
          continue;
        }
        if (line) lines.push(line);
        line = word;
        while (this.measure.width(line, font, size) > width && line.length > 1) {
          const cut = this.fitChars(line, font, size, width);
          lines.push(line.slice(0, cut));
          line = line.slice(cut);
        }
      }
      lines.push(line);
    }
    return lines;
  }

  private fitChars(word: string, font: FontName, size: number, width: number): number {
    let n = 1;
    while (n < word.length && this.measure.width(word.slice(0, n + 1), font, size) <= width) n++;
    return n;
  }

  private place(text: string, x: number, width: number, style: TextStyle, y: number): void {
    const font = style.font ?? 'Helvetica';
    const w = this.measure.width(text, font, style.size);
    const align = style.align ?? 'left';
    const dx = align === 'center' ? (width - w) / 2 : align === 'right' ? width - w : 0;
    if (text) this.ops.push({ kind: 'text', x: x + dx, y, text, font, size: style.size, color: style.color ?? INK });
  }

  /** A paragraph across the whole width. */
  text(text: string, style: TextStyle): this {
    for (const line of this.wrap(text, style.font ?? 'Helvetica', style.size, this.width)) {
      this.place(line, this.left, this.width, style, this.y);
      this.y += this.lineHeight(style.size);
    }
    return this;
  }

  /** One table row; each cell wraps in its own width, the row is as tall as its tallest cell. */
  row(cells: Cell[], style: TextStyle, gutter = 2): this {
    let x = this.left;
    let lines = 1;
    for (const cell of cells) {
      const wrapped = this.wrap(cell.text, style.font ?? 'Helvetica', style.size, cell.width);
      wrapped.forEach((line, i) => this.place(line, x, cell.width, { ...style, align: cell.align ?? 'left' }, this.y + i * this.lineHeight(style.size)));
      lines = Math.max(lines, wrapped.length);
      x += cell.width + gutter;
    }
    this.y += lines * this.lineHeight(style.size);
    return this;
  }

  /** Label on the left, value flush right: "Valor a Pagar R$ .......... 150,00". */
  pair(label: string, rawValue: string, style: TextStyle, valueStyle: TextStyle = style): this {
    const value = winAnsiText(rawValue);
    const valueWidth = this.measure.width(value, valueStyle.font ?? 'Helvetica', valueStyle.size);
    const labelWidth = Math.max(this.width - valueWidth - 4, this.width / 3);
    const labelLines = this.wrap(label, style.font ?? 'Helvetica', style.size, labelWidth);
    labelLines.forEach((line, i) => this.place(line, this.left, labelWidth, { ...style, align: 'left' }, this.y + i * this.lineHeight(style.size)));
    this.place(value, this.left, this.width, { ...valueStyle, align: 'right' }, this.y);
    this.y += Math.max(labelLines.length * this.lineHeight(style.size), this.lineHeight(valueStyle.size));
    return this;
  }

  rule(color: string, dashed = true): this {
    this.y += 2;
    this.ops.push({ kind: 'rule', x: this.left, y: this.y, width: this.width, color, dashed });
    this.y += 3;
    return this;
  }

  /** Draws a frame around what `draw` lays out inside it (notices that must stand out). */
  framed(color: string, padding: number, draw: (inner: ReceiptLayout) => void): this {
    const top = this.y;
    this.y = this.column(this.left + padding, this.width - 2 * padding, (inner) => {
      inner.y += padding;
      draw(inner);
      inner.y += padding;
    });
    this.ops.push({ kind: 'frame', x: this.left, y: top, width: this.width, height: this.y - top, color });
    return this;
  }

  /** Largest size up to `size` (and not under `min`) at which `text` fits on one line. */
  fittingSize(text: string, font: FontName, size: number, min: number): number {
    const width = this.measure.width(text, font, size);
    return width <= this.width ? size : Math.max(min, (0.98 * size * this.width) / width);
  }

  image(data: Buffer, x: number, y: number, width: number, height: number): void {
    this.ops.push({ kind: 'image', x, y, width, height, data });
  }

  /** Centered QR code with its quiet zone kept free above and below. */
  qr(symbol: QrSymbol, module: number, quietModules: number): this {
    const side = symbol.size * module;
    this.y += quietModules * module;
    this.ops.push({ kind: 'qr', x: this.left + (this.width - side) / 2, y: this.y, module, symbol });
    this.y += side + quietModules * module;
    return this;
  }
}
