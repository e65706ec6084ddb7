// The QR code as vector squares. Why vector rather than a PNG from qrcode.toBuffer: the PDF draws
// crisp module edges at any printer resolution (no resampling blur on 203 dpi thermal heads), it
// costs no image encode/decode, and the file stays small.
import QRCode from 'qrcode';

export const MM = 72 / 25.4;
// Manual DANFE NFC-e (docs/fiscal/danfe-nfce.md): QR code at least 25 mm x 25 mm.
export const QR_MIN_MM = 25;
// ISO/IEC 18004: a quiet zone of 4 modules around the symbol.
export const QR_QUIET_MODULES = 4;
// Thermal heads print 8 dots/mm (203 dpi); whole-dot modules print without uneven widths.
const PRINTER_DOT_MM = 25.4 / 203;

export interface QrSymbol {
  /** Modules per side. */
  size: number;
  /** Dark runs per row: [row, firstColumn, length]. */
  runs: Array<[number, number, number]>;
}

export function qrSymbol(text: string): QrSymbol {
  // Error correction M as the Manual asks; the library picks the smallest version that fits.
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const { size, data } = modules;
  const runs: QrSymbol['runs'] = [];
  for (let row = 0; row < size; row++) {
    let start = -1;
    for (let col = 0; col <= size; col++) {
      const dark = col < size && data[row * size + col] !== 0;
      if (dark && start < 0) start = col;
      else if (!dark && start >= 0) {
        runs.push([row, start, col - start]);
        start = -1;
      }
    }
  }
  return { size, runs };
}

/**
 * Module side in points: about `targetMm` wide, a whole number of printer dots, never under 25 mm,
 * and never wider than `maxPt` with its quiet zone unless that would break the 25 mm minimum.
 */
export function qrModulePt(symbol: QrSymbol, targetMm: number, maxPt: number): number {
  const dotsFor = (mm: number) => mm / symbol.size / PRINTER_DOT_MM;
  const minDots = Math.ceil(dotsFor(QR_MIN_MM));
  const fitDots = Math.floor(maxPt / MM / (symbol.size + 2 * QR_QUIET_MODULES) / PRINTER_DOT_MM);
  const dots = Math.max(minDots, Math.min(Math.round(dotsFor(targetMm)), fitDots));
  return dots * PRINTER_DOT_MM * MM;
}
