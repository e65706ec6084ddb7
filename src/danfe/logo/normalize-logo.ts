// Turns an uploaded logo into the one form the DANFE draws without surprises: fully
// decoded (so damaged data is found now, not while printing), flattened onto white paper (no
// alpha channel, which pdfkit would split in an asynchronous zlib callback), then written as an
// 8-bit greyscale/RGB PNG without interlacing (pdfkit copies its data as is) or, for a JPEG, a
// baseline JPEG. A logo already in that form is kept byte for byte, so normalizing is idempotent.
// Synchronous and CPU-bound: runs on a worker thread (logo-worker.ts), never on the event loop.
import { inflateSync } from 'node:zlib';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { LOGO_JPEG_QUALITY, LOGO_MAX_BYTES, LOGO_MAX_PIXELS } from './logo-limits.js';
import { LogoRefusal } from './logo-refusal.js';
import { isJpeg, readJpegStructure, type JpegStructure } from './jpeg-structure.js';
import { inflatedSize, isPng, readPngStructure, type PngStructure } from './png-structure.js';

export interface LogoImage {
  type: 'image/png' | 'image/jpeg';
  bytes: Buffer;
  width: number;
  height: number;
}

const reason = (err: unknown) => (err instanceof Error ? err.message : String(err)).replace(/[\r\n]+/g, ' ').slice(0, 120);

/** Decoded RGBA pixels, 8 bits per sample. */
interface Rgba {
  width: number;
  height: number;
  data: Uint8Array;
}

/** The normal form of a PNG: only the critical chunks a greyscale/RGB image needs, nothing after IEND. */
function isNormalPng(s: PngStructure): boolean {
  return s.bitDepth === 8 && (s.colorType === 0 || s.colorType === 2) && !s.interlaced && s.trailing === 0
    && s.chunks.every((c) => c === 'IHDR' || c === 'IDAT' || c === 'IEND');
}

/** The normal form of a JPEG: baseline, greyscale or YCbCr, JFIF header only, ending with EOI. */
function isNormalJpeg(s: JpegStructure): boolean {
  // APP0 (JFIF), DQT, SOF0, DHT, DRI, SOS: what a baseline encoder writes, no metadata (APPn, COM).
  const plain = new Set([0xe0, 0xdb, 0xc0, 0xc4, 0xdd, 0xda]);
  return s.frame === 0xc0 && (s.components === 1 || s.components === 3) && s.endsWithEoi && s.segments.every((m) => plain.has(m));
}

function decodePng(bytes: Buffer, s: PngStructure): Rgba {
  // The zlib stream is inflated once here with the exact size the header implies as its ceiling:
  // a stream that inflates to more (a bomb inside small dimensions) stops at that size.
  const expected = inflatedSize(s);
  let inflated: Buffer;
  try {
    inflated = inflateSync(s.idat, { maxOutputLength: expected });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new LogoRefusal(`is damaged: its image data holds more than its ${s.width}x${s.height} pixels need; export it again`);
    }
    throw new LogoRefusal(`is damaged: its image data cannot be decompressed (${reason(err)}); export it again`);
  }
  if (inflated.length < expected) throw new LogoRefusal('is damaged: its image data ends before its last row; export it again');
  try {
    // pngjs unfilters, de-interlaces, expands palettes and scales every depth to 8-bit RGBA. Bytes
    // after IEND (some editors leave them) are not part of the image: dropped, not refused.
    const png = PNG.sync.read(bytes.subarray(0, bytes.length - s.trailing));
    return { width: png.width, height: png.height, data: png.data };
  } catch (err) {
    throw new LogoRefusal(`is damaged: ${reason(err)}; export it again`);
  }
}

function decodeJpeg(bytes: Buffer): Rgba {
  try {
    return jpeg.decode(bytes, {
      useTArray: true,
      formatAsRGBA: true,
      tolerantDecoding: false,
      // The header was checked already; these bound the decoder itself should it disagree.
      maxResolutionInMP: LOGO_MAX_PIXELS / 1_000_000 + 0.01,
      maxMemoryUsageInMB: 48,
    });
  } catch (err) {
    throw new LogoRefusal(`is damaged or uses a JPEG feature that cannot be read (${reason(err)}); save it again as a baseline JPEG or a PNG`);
  }
}

/** Composites the pixels onto white paper; says whether every pixel came out grey. */
function flattenOnWhite(img: Rgba): { rgb: Buffer; grey: boolean } {
  const n = img.width * img.height;
  const rgb = Buffer.alloc(n * 3);
  let grey = true;
  for (let i = 0; i < n; i++) {
    const a = img.data[i * 4 + 3]!;
    for (let c = 0; c < 3; c++) rgb[i * 3 + c] = Math.round((img.data[i * 4 + c]! * a + 255 * (255 - a)) / 255);
    if (grey && (rgb[i * 3] !== rgb[i * 3 + 1] || rgb[i * 3] !== rgb[i * 3 + 2])) grey = false;
  }
  return { rgb, grey };
}

function encodePng(img: Rgba): Buffer {
  const { rgb, grey } = flattenOnWhite(img);
  const data = grey ? Buffer.from(rgb.filter((_, i) => i % 3 === 0)) : rgb;
  const colorType = grey ? 0 : 2;
  return PNG.sync.write({ width: img.width, height: img.height, data } as PNG, { colorType, inputColorType: colorType, inputHasAlpha: false, bitDepth: 8 });
}

function encodeJpeg(img: Rgba): Buffer {
  const { rgb } = flattenOnWhite(img);
  const rgba = Buffer.alloc(img.width * img.height * 4, 255);
  for (let i = 0; i < img.width * img.height; i++) rgb.copy(rgba, i * 4, i * 3, i * 3 + 3);
  return jpeg.encode({ width: img.width, height: img.height, data: rgba }, LOGO_JPEG_QUALITY).data;
}

/**
 * The logo in normal form, or a LogoRefusal saying what is wrong. The size declared in the header
 * is checked before anything is inflated or decoded, and the inflated size is bounded too.
 */
export function normalizeLogo(bytes: Buffer): LogoImage {
  let out: LogoImage;
  if (isPng(bytes)) {
    const s = readPngStructure(bytes);
    const img = decodePng(bytes, s);
    out = { type: 'image/png', bytes: isNormalPng(s) ? bytes : encodePng(img), width: s.width, height: s.height };
  } else if (isJpeg(bytes)) {
    const s = readJpegStructure(bytes);
    const img = decodeJpeg(bytes);
    if (img.width !== s.width || img.height !== s.height) throw new LogoRefusal('is damaged: its image does not have the size its header declares; export it again');
    out = { type: 'image/jpeg', bytes: isNormalJpeg(s) ? bytes : encodeJpeg(img), width: s.width, height: s.height };
  } else {
    throw new LogoRefusal('is not a PNG or JPEG image');
  }
  if (out.bytes.length > LOGO_MAX_BYTES) {
    const form = out.type === 'image/png' ? 'an 8-bit PNG for printing' : 'a baseline JPEG for printing';
    throw new LogoRefusal(
      `is ${out.bytes.length} bytes once converted to ${form}; the limit is ${LOGO_MAX_BYTES} bytes (256 KiB): use a smaller image ` +
        `(a receipt prints it about 20 mm wide, so 400 pixels is plenty)${out.type === 'image/png' ? ', fewer colours, or a JPEG' : ''}`,
    );
  }
  return out;
}
