// Logo images for the DANFE logo tests, written byte by byte here so each sample is exactly what its
// name says: the hostile ones (damaged data, decompression bombs, empty files) and the
// legitimate PNG variants the gateway must accept (palette, 16-bit, greyscale, alpha, interlaced).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function pngChunk(type: string, data: Buffer, crc?: number): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const sum = Buffer.alloc(4);
  sum.writeUInt32BE(crc ?? crc32(body));
  return Buffer.concat([len, body, sum]);
}

export function ihdr(width: number, height: number, bitDepth: number, colorType: number, interlace = 0): Buffer {
  const b = Buffer.alloc(13);
  b.writeUInt32BE(width, 0);
  b.writeUInt32BE(height, 4);
  b.set([bitDepth, colorType, 0, 0, interlace], 8);
  return b;
}

/** A PNG file from its IHDR fields, the compressed image data and optional chunks before IDAT. */
export function pngFile(header: Buffer, idat: Buffer, before: Buffer[] = []): Buffer {
  return Buffer.concat([PNG_MAGIC, pngChunk('IHDR', header), ...before, pngChunk('IDAT', idat), pngChunk('IEND', Buffer.alloc(0))]);
}

type Rgba = [number, number, number, number];

/** The test logo: a dark disc on a gradient, transparent outside a rounded frame. */
function logoPixel(x: number, y: number, w: number, h: number): Rgba {
  const disc = (x - w / 4) ** 2 + (y - h / 2) ** 2 < (h / 3) ** 2;
  const inside = x > 2 && y > 2 && x < w - 3 && y < h - 3;
  if (disc) return [20, 60, 140, 255];
  return [200 - Math.floor((x * 120) / w), 120 + Math.floor((y * 100) / h), 90, inside ? 255 : 0];
}

/** One sample of a pixel in the given colour type, scaled to the bit depth. */
function samples(p: Rgba, colorType: number, bitDepth: number, paletteIndex: number): number[] {
  const max = (1 << bitDepth) - 1;
  const s = (v: number) => Math.round((v / 255) * max);
  const grey = Math.round((p[0] + p[1] + p[2]) / 3);
  switch (colorType) {
    case 0:
      return [s(grey)];
    case 2:
      return [s(p[0]), s(p[1]), s(p[2])];
    case 3:
      return [paletteIndex];
    case 4:
      return [s(grey), s(p[3])];
    default:
      return [s(p[0]), s(p[1]), s(p[2]), s(p[3])];
  }
}

/** Filtered scanlines (filter 0) of a w x h image; samples packed MSB first for depths below 8. */
function scanlines(w: number, h: number, colorType: number, bitDepth: number, pixel: (x: number, y: number) => { rgba: Rgba; index: number }, xs?: number[], ys?: number[]): Buffer {
  const cols = xs ?? Array.from({ length: w }, (_, i) => i);
  const rows = ys ?? Array.from({ length: h }, (_, i) => i);
  const out: number[] = [];
  for (const y of rows) {
    out.push(0);
    const bits: number[] = [];
    for (const x of cols) {
      const { rgba, index } = pixel(x, y);
      for (const v of samples(rgba, colorType, bitDepth, index)) {
        if (bitDepth === 16) bits.push(v >> 8, v & 0xff);
        else bits.push(v);
      }
    }
    if (bitDepth >= 8) out.push(...bits);
    else {
      const perByte = 8 / bitDepth;
      for (let i = 0; i < bits.length; i += perByte) {
        let byte = 0;
        for (let k = 0; k < perByte; k++) byte |= (bits[i + k] ?? 0) << (8 - bitDepth * (k + 1));
        out.push(byte);
      }
    }
  }
  return Buffer.from(out);
}

// Adam7 passes: [x0, y0, dx, dy].
const ADAM7 = [
  [0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2],
] as const;

export interface PngSampleOptions {
  width?: number;
  height?: number;
  colorType: 0 | 2 | 3 | 4 | 6;
  bitDepth: 1 | 2 | 4 | 8 | 16;
  interlace?: boolean;
  /** Palette images: a tRNS chunk makes the border transparent. */
  transparency?: boolean;
}

/** A valid PNG of the test logo in any colour type, bit depth and interlacing. */
export function logoPng(o: PngSampleOptions): Buffer {
  const w = o.width ?? 120;
  const h = o.height ?? 60;
  const before: Buffer[] = [];
  let palette: Rgba[] = [];
  if (o.colorType === 3) {
    // Four colours: transparent border, gradient approximated by two tones, the disc.
    palette = [[255, 255, 255, 0], [190, 150, 90, 255], [140, 190, 90, 255], [20, 60, 140, 255]];
    before.push(pngChunk('PLTE', Buffer.from(palette.flatMap((c) => [c[0], c[1], c[2]]))));
    if (o.transparency) before.push(pngChunk('tRNS', Buffer.from(palette.map((c) => c[3]))));
  }
  const pixel = (x: number, y: number) => {
    const rgba = logoPixel(x, y, w, h);
    const index = rgba[3] === 0 ? 0 : rgba[0] === 20 ? 3 : x < w / 2 ? 1 : 2;
    return { rgba: o.colorType === 3 ? palette[index]! : rgba, index };
  };
  let raw: Buffer;
  if (!o.interlace) raw = scanlines(w, h, o.colorType, o.bitDepth, pixel);
  else {
    const passes: Buffer[] = [];
    for (const [x0, y0, dx, dy] of ADAM7) {
      const xs: number[] = [];
      const ys: number[] = [];
      for (let x = x0; x < w; x += dx) xs.push(x);
      for (let y = y0; y < h; y += dy) ys.push(y);
      if (xs.length && ys.length) passes.push(scanlines(w, h, o.colorType, o.bitDepth, pixel, xs, ys));
    }
    raw = Buffer.concat(passes);
  }
  return pngFile(ihdr(w, h, o.bitDepth, o.colorType, o.interlace ? 1 : 0), deflateSync(raw), before);
}

/** The hostile samples of each was stored before and then broke every DANFE (or the process). */
export const HOSTILE = {
  /** RGBA PNG whose IDAT is not zlib data (valid CRCs): png-js threw inside a zlib callback. */
  corruptIdat: () => pngFile(ihdr(50, 50, 8, 6), Buffer.from('this is not zlib data at all')),
  /** A sound PNG with one IDAT byte changed and the CRC left as it was. */
  badCrc: () => {
    const good = logoPng({ colorType: 2, bitDepth: 8 });
    const at = good.indexOf('IDAT') + 10;
    good[at] = good[at]! ^ 0xff;
    return good;
  },
  /** Declares 20000x20000 RGBA with a 10 MB run of zeros as its (incomplete) data: about 10 KB. */
  bomb20000: () => pngFile(ihdr(20000, 20000, 8, 6), deflateSync(Buffer.alloc(10_000_000))),
  /** A complete 4000x4000 RGB bomb of about 47 KB: seconds of CPU and 300 MB per DANFE before. */
  bomb4000: () => pngFile(ihdr(4000, 4000, 8, 2), deflateSync(Buffer.alloc((4000 * 3 + 1) * 4000))),
  /** Small header, IDAT that inflates far beyond what 16x16 pixels need (50 MB of zeros). */
  overlongIdat: () => pngFile(ihdr(16, 16, 8, 2), deflateSync(Buffer.alloc(50_000_000))),
  magicOnlyPng: () => Buffer.from(PNG_MAGIC),
  eightByteJpeg: () => Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46]),
  zeroByZeroPng: () => pngFile(ihdr(0, 0, 8, 2), deflateSync(Buffer.alloc(0))),
  /** A baseline JPEG frame header declaring 65535x65535 pixels, then garbage scan data. */
  hugeJpeg: () =>
    Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08, 0xff, 0xff, 0xff, 0xff, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01]),
      Buffer.from([0xff, 0xda, 0x00, 0x0c, 0x03, 0x01, 0x00, 0x02, 0x11, 0x03, 0x11, 0x00, 0x3f, 0x00]),
      Buffer.alloc(64, 0x55),
      Buffer.from([0xff, 0xd9]),
    ]),
  /** A valid PNG cut after its IDAT chunk: no IEND. */
  truncatedPng: () => {
    const good = logoPng({ colorType: 2, bitDepth: 8 });
    return good.subarray(0, good.length - 12 - 20);
  },
} as const;

export const FIXTURE_DIR = resolve(import.meta.dirname, '../fixtures/images');

/** A progressive JPEG (SOF2) of 240x120 pixels, made with pdftoppm -jpegopt progressive=y (see README there). */
export const progressiveJpeg = () => readFileSync(resolve(FIXTURE_DIR, 'logo-progressive.jpg'));

export const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

/** The PNG header fields of a stored logo, to check what the gateway wrote. */
export function pngHeaderOf(png: Buffer): { width: number; height: number; bitDepth: number; colorType: number; interlace: number; chunks: string[] } {
  const chunks: string[] = [];
  for (let at = 8; at + 8 <= png.length; ) {
    const len = png.readUInt32BE(at);
    chunks.push(png.toString('latin1', at + 4, at + 8));
    at += 12 + len;
  }
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20), bitDepth: png[24]!, colorType: png[25]!, interlace: png[28]!, chunks };
}

/** The frame type (SOF marker) of a JPEG: 0xc0 baseline, 0xc2 progressive. */
export function jpegFrameOf(jpeg: Buffer): { marker: number; width: number; height: number; components: number } {
  for (let at = 2; at + 4 <= jpeg.length; ) {
    const marker = jpeg[at + 1]!;
    const len = jpeg.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      return { marker, height: jpeg.readUInt16BE(at + 5), width: jpeg.readUInt16BE(at + 7), components: jpeg[at + 9]! };
    }
    at += 2 + len;
  }
  throw new Error('no SOF marker');
}
