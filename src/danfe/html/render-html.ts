// The DANFE NFC-e as one self-contained HTML page for browser printing on a thermal roll: the lines of
// receipt-text.ts (the same content as the ESC/POS stream and the PDF), inline CSS, the QR code as
// inline SVG. Nothing is fetched and nothing runs: every text is escaped and the page carries a
// Content-Security-Policy without scripts (the route sends the same policy as a header).
import QRCode from 'qrcode';
import { columnsOf } from '../column-text.js';
import { DanfeInputError, type DanfeInput } from '../danfe-input.js';
import { receiptCopies, type ReceiptBlock, type ReceiptCopy } from '../receipt-text.js';
import { escapeHtml } from './escape-html.js';
import { HTML_GEOMETRY, LARGE_LINE_MM, LINE_MM, PAD_MM, receiptCss } from './receipt-css.js';

export interface HtmlOptions {
  /** Roll width in mm: 80 (default) or 58. */
  width?: 80 | 58;
}

/** No script, no fetch, no form, no base: only the inline style and inline SVG the page holds. */
export const RECEIPT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'none'; base-uri 'none'; form-action 'none'";

const QR_MARGIN_MM = 4;

function blockHtml(b: ReceiptBlock, qrSvg: string): string {
  if (b.kind === 'rule') return '<hr class="r">';
  if (b.kind === 'qr') return qrSvg;
  const cls = ['l', b.align === 'center' ? 'c' : '', b.bold ? 'b' : '', b.large ? 'g' : ''].filter(Boolean).join(' ');
  return b.lines.map((line) => `<p class="${cls}">${escapeHtml(line) || '&#160;'}</p>`).join('\n');
}

function copyHeightMm(copy: ReceiptCopy, qrMm: number): number {
  return copy.blocks.reduce((mm, b) => {
    if (b.kind === 'rule') return mm + LINE_MM;
    if (b.kind === 'qr') return mm + qrMm + QR_MARGIN_MM;
    return mm + b.lines.length * (b.large ? LARGE_LINE_MM : LINE_MM);
  }, 2 * PAD_MM);
}

export async function renderDanfeHtml(input: DanfeInput, options: HtmlOptions = {}): Promise<string> {
  const roll = options.width ?? 80;
  if (roll !== 80 && roll !== 58) throw new DanfeInputError(`width must be 80 or 58 (mm), got ${String(roll)}`);
  if (!input.qrCode) throw new DanfeInputError('qrCode is missing: the DANFE NFC-e must carry the QR code');
  const { qrMm } = HTML_GEOMETRY[roll];
  // Error correction M as the Manual asks; the 4-module quiet zone inside the drawing.
  const svg = await QRCode.toString(input.qrCode, { type: 'svg', errorCorrectionLevel: 'M', margin: 4 });
  const qrSvg = svg.replace('<svg ', `<svg class="qr" width="${qrMm}mm" height="${qrMm}mm" role="img" aria-label="QR Code" `);
  const copies = receiptCopies(input, columnsOf(roll));
  const height = Math.max(...copies.map((c) => copyHeightMm(c, qrMm))) + LINE_MM;
  const body = copies.map((c) => `<section class="copy">\n${c.blocks.map((b) => blockHtml(b, qrSvg)).join('\n')}\n</section>`).join('\n');
  return [
    '<!DOCTYPE html>',
    '<html lang="pt-BR"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(RECEIPT_CSP)}">`,
    `<title>DANFE NFC-e ${escapeHtml(input.accessKey)}</title>`,
    `<style>\n${receiptCss(roll, height)}\n</style>`,
    '</head><body>',
    body,
    '</body></html>',
    '',
  ].join('\n');
}
