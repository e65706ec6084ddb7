// The DANFE NFC-e as an ESC/POS stream for 80 mm (48 columns) and 58 mm (32 columns) thermal printers:
// the lines of receipt-text.ts in code page PC860, the QR code drawn by the printer itself, a cut after
// each copy.
import { columnsOf } from '../column-text.js';
import { DanfeInputError, type DanfeInput } from '../danfe-input.js';
import { QR_MIN_MM, QR_QUIET_MODULES, qrSymbol } from '../qr-symbol.js';
import { receiptCopies, type ReceiptBlock } from '../receipt-text.js';
import { align, bold, codeTable, cut, init, LF, qrCode, size } from './commands.js';
import { encodePc860, PC860, pc860Text } from './code-page.js';

export interface EscposOptions {
  /** Roll width in mm: 80 (default) or 58. */
  width?: 80 | 58;
}

// Thermal heads print 8 dots/mm; font A prints 48 columns on 72 mm of an 80 mm roll, 32 on 48 mm of 58 mm.
const DOTS_PER_MM = 8;
const PRINTABLE_DOTS = { 80: 576, 58: 384 } as const;
const QR_TARGET_MM = { 80: 35, 58: 30 } as const;

/**
 * Module size in dots: about the target width, never under the 25 mm minimum (docs/fiscal/danfe-nfce.md) and, unless
 * that minimum forbids it, never wider than the paper with its quiet zone. The printer picks the QR
 * version; the library's version for the same payload and level is the estimate.
 */
export function qrModuleDots(payload: string, roll: 80 | 58): number {
  const modules = qrSymbol(payload).size;
  const min = Math.ceil((QR_MIN_MM * DOTS_PER_MM) / modules);
  const fit = Math.floor(PRINTABLE_DOTS[roll] / (modules + 2 * QR_QUIET_MODULES));
  return Math.max(min, Math.min(Math.round((QR_TARGET_MM[roll] * DOTS_PER_MM) / modules), fit));
}

function block(b: ReceiptBlock, columns: number, roll: 80 | 58): Buffer[] {
  if (b.kind === 'rule') return [align('left'), encodePc860('-'.repeat(columns)), LF];
  if (b.kind === 'qr') return [align('center'), qrCode(Buffer.from(b.payload, 'utf8'), qrModuleDots(b.payload, roll)), LF];
  const out = [align(b.align), bold(Boolean(b.bold)), size(Boolean(b.large))];
  for (const line of b.lines) out.push(encodePc860(line), LF);
  if (b.bold) out.push(bold(false));
  if (b.large) out.push(size(false));
  return out;
}

export function renderDanfeEscpos(input: DanfeInput, options: EscposOptions = {}): Buffer {
  const roll = options.width ?? 80;
  if (roll !== 80 && roll !== 58) throw new DanfeInputError(`width must be 80 or 58 (mm), got ${String(roll)}`);
  if (!input.qrCode) throw new DanfeInputError('qrCode is missing: the DANFE NFC-e must carry the QR code');
  const columns = columnsOf(roll);
  const parts: Buffer[] = [init(), codeTable(PC860)];
  for (const copy of receiptCopies(input, columns, pc860Text)) {
    for (const b of copy.blocks) parts.push(...block(b, columns, roll));
    parts.push(align('left'), LF, LF, cut(0));
  }
  return Buffer.concat(parts);
}
