// Paper geometry and type sizes of the two roll widths, and the issuer's tint.
import { DanfeInputError } from './danfe-input.js';
import { MM } from './qr-symbol.js';

export type RollWidth = 80 | 58;

export interface DanfeTheme {
  roll: RollWidth;
  pageWidth: number;
  margin: number;
  contentWidth: number;
  /** Body text, item table, small print, headings, notices (points). */
  size: { body: number; items: number; small: number; heading: number; notice: number };
  /** Issuer tint for headings and rules. */
  accent: string;
  rule: string;
  qrTargetMm: number;
}

// Printable width of common thermal heads: 72 mm on 80 mm rolls (576 dots), 48 mm on 58 mm rolls
// (384 dots); the rest is the paper's blank border.
const PRINTABLE_MM: Record<RollWidth, number> = { 80: 72, 58: 48 };

export function danfeTheme(roll: RollWidth, primaryColor?: string): DanfeTheme {
  const pageWidth = roll * MM;
  const contentWidth = PRINTABLE_MM[roll] * MM;
  const narrow = roll === 58;
  const accent = primaryColor === undefined ? '#000000' : legibleInk(primaryColor);
  return {
    roll,
    pageWidth,
    margin: (pageWidth - contentWidth) / 2,
    contentWidth,
    size: narrow
      ? { body: 6.5, items: 6, small: 5.5, heading: 7, notice: 8 }
      : { body: 7.5, items: 6.8, small: 6.5, heading: 8, notice: 9.5 },
    accent,
    rule: accent,
    qrTargetMm: narrow ? 30 : 36,
  };
}

/**
 * '#RRGGBB' made dark enough to stay readable once a thermal printer turns it into grey dots:
 * colours lighter than a mid grey are scaled toward black, hue kept.
 */
export function legibleInk(hex: string): string {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) throw new DanfeInputError(`primaryColor must be '#RRGGBB', got ${JSON.stringify(hex)}`);
  const rgb = [m[1], m[2], m[3]].map((h) => parseInt(h ?? '0', 16));
  const [r = 0, g = 0, b = 0] = rgb;
  const luminance = (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
  const MAX_LUMINANCE = 0.45;
  const k = luminance > MAX_LUMINANCE ? MAX_LUMINANCE / luminance : 1;
  return `#${rgb.map((c) => Math.round(c * k).toString(16).padStart(2, '0')).join('')}`;
}
