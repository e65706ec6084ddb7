// The structure of a PNG file read without decompressing anything: the header (IHDR), every chunk's
// length and CRC, the compressed image data (IDAT) and whether the file ends with IEND.
// the declared size is checked here, before a single byte is inflated.
import { LOGO_LIMIT_TEXT, LOGO_MAX_PIXELS, LOGO_MAX_SIDE } from './logo-limits.js';
import { LogoRefusal } from './logo-refusal.js';

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface PngStructure {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  interlaced: boolean;
  /** Chunk types in file order, up to and including IEND. */
  chunks: string[];
  /** The IDAT payloads joined: one zlib stream. */
  idat: Buffer;
  /** Bytes after IEND. */
  trailing: number;
}

const CRC_TABLE = Int32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});

function crc32(buf: Buffer, start: number, end: number): number {
  let c = -1;
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ buf[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

// PNG 1.2, table 11.1: the bit depths each colour type allows.
const DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

export function isPng(bytes: Buffer): boolean {
  return bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE);
}

/** Refuses a size of zero or beyond the logo limits (before anything is decoded). */
export function checkLogoSize(width: number, height: number): void {
  if (width < 1 || height < 1) throw new LogoRefusal(`is ${width}x${height} pixels; a logo needs at least 1x1`);
  if (width > LOGO_MAX_SIDE || height > LOGO_MAX_SIDE || width * height > LOGO_MAX_PIXELS) {
    throw new LogoRefusal(`is ${width}x${height} pixels; ${LOGO_LIMIT_TEXT}: scale it down (a receipt prints it about 20 mm wide, so 400 pixels is plenty)`);
  }
}

export function readPngStructure(bytes: Buffer): PngStructure {
  if (!isPng(bytes)) throw new LogoRefusal('is not a PNG image');
  if (bytes.length < 8 + 12 + 13 || bytes.readUInt32BE(8) !== 13 || bytes.toString('latin1', 12, 16) !== 'IHDR') {
    throw new LogoRefusal('is not a complete PNG image (the file ends before its header); upload the whole file');
  }
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const [bitDepth, colorType, compression, filter, interlace] = bytes.subarray(24, 29);
  if (crc32(bytes, 12, 29) !== bytes.readUInt32BE(29)) throw new LogoRefusal('is damaged: the CRC of its IHDR chunk does not match; export it again');
  if (!DEPTHS[colorType!]?.includes(bitDepth!) || compression !== 0 || filter !== 0 || (interlace !== 0 && interlace !== 1)) {
    throw new LogoRefusal(`has an invalid PNG header (colour type ${colorType}, bit depth ${bitDepth}); export it again`);
  }
  checkLogoSize(width, height);

  const chunks: string[] = [];
  const idat: Buffer[] = [];
  let at = 8;
  for (;;) {
    if (at + 12 > bytes.length) throw new LogoRefusal('is truncated: the file ends before its IEND chunk; upload the whole file');
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const end = at + 12 + length;
    if (length > 0x7fffffff || end > bytes.length) throw new LogoRefusal('is truncated: the file ends before its IEND chunk; upload the whole file');
    if (!/^[A-Za-z]{4}$/.test(type)) throw new LogoRefusal('is damaged: it holds a chunk with an invalid name; export it again');
    if (crc32(bytes, at + 4, end - 4) !== bytes.readUInt32BE(end - 4)) {
      throw new LogoRefusal(`is damaged: the CRC of its ${type} chunk does not match; export it again`);
    }
    chunks.push(type);
    if (type === 'IDAT') idat.push(bytes.subarray(at + 8, end - 4));
    at = end;
    if (type === 'IEND') break;
  }
  if (idat.length === 0) throw new LogoRefusal('has no image data (IDAT chunk); export it again');
  if (colorType === 3 && !chunks.includes('PLTE')) throw new LogoRefusal('is a palette image without its palette (PLTE chunk); export it again');
  return { width, height, bitDepth: bitDepth!, colorType: colorType!, interlaced: interlace === 1, chunks, idat: Buffer.concat(idat), trailing: bytes.length - at };
}

// Adam7 passes: [x0, y0, dx, dy].
const ADAM7 = [
  [0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2],
] as const;

/** Bytes the IDAT stream must inflate to: one filter byte per row plus the packed samples. */
export function inflatedSize(png: Pick<PngStructure, 'width' | 'height' | 'bitDepth' | 'colorType' | 'interlaced'>): number {
  const bitsPerPixel = png.bitDepth * CHANNELS[png.colorType]!;
  const rowBytes = (w: number) => 1 + Math.ceil((w * bitsPerPixel) / 8);
  if (!png.interlaced) return png.height * rowBytes(png.width);
  let total = 0;
  for (const [x0, y0, dx, dy] of ADAM7) {
    const w = Math.ceil((png.width - x0) / dx);
    const h = Math.ceil((png.height - y0) / dy);
    if (w > 0 && h > 0) total += h * rowBytes(w);
  }
  return total;
}
