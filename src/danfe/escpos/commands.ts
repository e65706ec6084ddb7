// The ESC/POS commands the receipt uses (Epson ESC/POS Application Programming Guide; every
// Epson-compatible thermal printer of Brazilian points of sale takes them).

const ESC = 0x1b;
const GS = 0x1d;
export const LF = Buffer.from([0x0a]);

/** ESC @: initialize (clears styles left by whatever printed before). */
export const init = (): Buffer => Buffer.from([ESC, 0x40]);

/** ESC t n: character code table. */
export const codeTable = (n: number): Buffer => Buffer.from([ESC, 0x74, n]);

/** ESC a n: 0 left, 1 center. */
export const align = (where: 'left' | 'center'): Buffer => Buffer.from([ESC, 0x61, where === 'center' ? 1 : 0]);

/** ESC E n: emphasized (bold) on or off. */
export const bold = (on: boolean): Buffer => Buffer.from([ESC, 0x45, on ? 1 : 0]);

/** GS ! n: character size; 0x01 doubles the height only, so a line keeps its columns. */
export const size = (doubleHeight: boolean): Buffer => Buffer.from([GS, 0x21, doubleHeight ? 0x01 : 0x00]);

/** GS ( k: a 2D symbol function of cn 49 (QR code) with its parameters. */
function qrFunction(fn: number, params: Buffer): Buffer {
  const len = params.length + 2;
  return Buffer.concat([Buffer.from([GS, 0x28, 0x6b, len & 0xff, len >> 8, 0x31, fn]), params]);
}

// The store area holds up to 7089 bytes; pL pH count the payload plus cn, fn and m.
const QR_MAX_BYTES = 7089;

/**
 * The printer's own QR code: model 2 (fn 65), module size in dots (fn 67), error correction M as the
 * Manual DANFE NFC-e asks (fn 69, 49), the payload stored as is (fn 80, m 48), then printed (fn 81).
 */
export function qrCode(payload: Buffer, moduleDots: number): Buffer {
  if (payload.length === 0 || payload.length > QR_MAX_BYTES) throw new RangeError(`QR payload of ${payload.length} bytes`);
  const dots = Math.max(1, Math.min(16, Math.round(moduleDots)));
  return Buffer.concat([
    qrFunction(65, Buffer.from([50, 0])),
    qrFunction(67, Buffer.from([dots])),
    qrFunction(69, Buffer.from([49])),
    qrFunction(80, Buffer.concat([Buffer.from([48]), payload])),
    qrFunction(81, Buffer.from([48])),
  ]);
}

/** GS V 66 n: feed to the cutter plus n dots, then a partial cut (leaves a tab the tear bar frees). */
export const cut = (feedDots = 0): Buffer => Buffer.from([GS, 0x56, 66, feedDots]);
