// Hostile files built byte by byte, shared by the hostile suite (bench/hostile.ts, test/hostile.test.ts)
// and the OpenAPI fuzzer: images whose header lies about their content, and PKCS#12 files whose
// key-derivation parameters would hold a CPU for minutes. Each is what an attacker can upload.
import { deflateSync } from 'node:zlib';
import forge from 'node-forge';

// ---------- PNG (ISO/IEC 15948) ----------

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** One chunk with a correct CRC (so only its content lies). */
export function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

export interface PngHeader {
  width: number;
  height: number;
  bitDepth?: number;
  /** 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA */
  colorType?: number;
}

function ihdr(h: PngHeader): Buffer {
  const d = Buffer.alloc(13);
  d.writeUInt32BE(h.width, 0);
  d.writeUInt32BE(h.height, 4);
  d[8] = h.bitDepth ?? 8;
  d[9] = h.colorType ?? 2;
  return pngChunk('IHDR', d);
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** A real, decodable PNG: every pixel from `pixel(x, y)` (channel values in the header's bit depth). */
export function png(h: PngHeader, pixel: (x: number, y: number) => number[] = (x, y) => [x * 16, y * 16, 128]): Buffer {
  const depth = h.bitDepth ?? 8;
  const type = h.colorType ?? 2;
  const bytesPer = depth / 8;
  const rows: Buffer[] = [];
  for (let y = 0; y < h.height; y++) {
    const row = Buffer.alloc(1 + h.width * CHANNELS[type]! * bytesPer);
    let o = 1;
    for (let x = 0; x < h.width; x++) {
      const px = pixel(x, y);
      for (let c = 0; c < CHANNELS[type]!; c++) {
        const v = (px[c] ?? 255) & (depth === 16 ? 0xffff : 0xff);
        if (depth === 16) row.writeUInt16BE(v, o);
        else row[o] = v;
        o += bytesPer;
      }
    }
    rows.push(row);
  }
  const extra = type === 3 ? [pngChunk('PLTE', Buffer.from(Array.from({ length: 16 * 3 }, (_, i) => (i * 17) & 0xff)))] : [];
  return Buffer.concat([PNG_MAGIC, ihdr(h), ...extra, pngChunk('IDAT', deflateSync(Buffer.concat(rows))), pngChunk('IEND', Buffer.alloc(0))]);
}

/** The PNG signature and nothing else. */
export const pngMagicOnly = (): Buffer => Buffer.from(PNG_MAGIC);

/** A 0x0 PNG (the standard forbids it; decoders disagree on what to do). */
export const pngZeroByZero = (): Buffer =>
  Buffer.concat([PNG_MAGIC, ihdr({ width: 0, height: 0 }), pngChunk('IDAT', deflateSync(Buffer.alloc(0))), pngChunk('IEND', Buffer.alloc(0))]);

/** A 16x16 PNG whose IDAT is not zlib data (its CRC is right): decoders fail in their inflate callback. */
export const pngCorruptData = (): Buffer =>
  Buffer.concat([PNG_MAGIC, ihdr({ width: 16, height: 16 }), pngChunk('IDAT', Buffer.from('this is not a zlib stream at all, just text')), pngChunk('IEND', Buffer.alloc(0))]);

/**
 * A decompression bomb: a valid PNG of `side` x `side` black grey pixels. 5,000 per side is 25 MB of
 * pixels in about 25 KB of file; a decoder without a pixel cap inflates all of it.
 */
export function pngBomb(side = 5000): Buffer {
  const raw = Buffer.alloc(side * (side + 1)); // filter byte 0 + one grey byte per pixel, all zero
  return Buffer.concat([PNG_MAGIC, ihdr({ width: side, height: side, colorType: 0 }), pngChunk('IDAT', deflateSync(raw, { level: 9 })), pngChunk('IEND', Buffer.alloc(0))]);
}

/** A header that declares 20000x20000 RGBA (1.6 GB of pixels) over a tiny IDAT. */
export const pngHugeHeader = (): Buffer =>
  Buffer.concat([PNG_MAGIC, ihdr({ width: 20000, height: 20000, colorType: 6 }), pngChunk('IDAT', deflateSync(Buffer.alloc(1024))), pngChunk('IEND', Buffer.alloc(0))]);

/** A baseline JPEG frame header declaring 65535x65535 pixels, then garbage scan data. */
export function jpegHugeHeader(): Buffer {
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, 0xff, 0xff, 0xff, 0xff, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01]);
  const sos = Buffer.from([0xff, 0xda, 0x00, 0x0c, 0x03, 0x01, 0x00, 0x02, 0x11, 0x03, 0x11, 0x00, 0x3f, 0x00]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), sof, sos, Buffer.alloc(64, 0x55), Buffer.from([0xff, 0xd9])]);
}

/** `bytes` with `flips` bytes replaced (offsets and values from `pick`), past the first `keep` bytes. */
export function corrupt(bytes: Buffer, flips: Array<[number, number]>, keep = 8): Buffer {
  const out = Buffer.from(bytes);
  for (const [at, value] of flips) out[keep + (at % Math.max(1, out.length - keep))] = value & 0xff;
  return out;
}

/** The JPEG start-of-image and an APP0 marker's first bytes: eight bytes, no image. */
export const jpegEightBytes = (): Buffer => Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46]);

export const dataUrl = (type: 'image/png' | 'image/jpeg', bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

// ---------- PKCS#12 (RFC 7292) ----------

/** Minimal DER INTEGER for a non-negative number (forge's integerToDer stops at 32 bits). */
function derUnsigned(n: bigint): string {
  let hex = n.toString(16);
  if (hex.length % 2) hex = '0' + hex;
  if (parseInt(hex.slice(0, 2), 16) & 0x80) hex = '00' + hex;
  return forge.util.hexToBytes(hex);
}

type Asn1 = forge.asn1.Asn1;

/**
 * Rewrites the iteration counts of a PKCS#12 file: `mac` in MacData, `kdf` in every password-based
 * encryption parameter (PKCS#12 PBE and PBES2/PBKDF2), found as the INTEGER that follows a salt
 * (an OCTET STRING) in one SEQUENCE, inside nested DER octet strings too. The MAC no longer matches
 * (it was computed for the old count): a parser that checks the counts before the password refuses
 * the file at once; one that derives keys first spends the whole count.
 */
export function withIterations(pfxDer: Buffer, counts: { mac?: bigint | number; kdf?: bigint | number }): Buffer {
  const root = forge.asn1.fromDer(forge.util.createBuffer(pfxDer.toString('binary')));
  const seq = root.value as Asn1[];
  if (counts.kdf !== undefined) patchKdf(seq[1]!, BigInt(counts.kdf));
  if (counts.mac !== undefined) {
    const macData = seq[2]!.value as Asn1[];
    macData[2]!.value = derUnsigned(BigInt(counts.mac));
  }
  return Buffer.from(forge.asn1.toDer(root).getBytes(), 'binary');
}

function patchKdf(node: Asn1, count: bigint): void {
  const { asn1 } = forge;
  if (node.tagClass === asn1.Class.UNIVERSAL && node.type === asn1.Type.OCTETSTRING && typeof node.value === 'string') {
    // An octet string may carry DER (SafeContents, AuthenticatedSafe): patch inside and re-encode.
    try {
      const inner = asn1.fromDer(forge.util.createBuffer(node.value));
      if (inner.type === asn1.Type.SEQUENCE) {
        patchKdf(inner, count);
        node.value = asn1.toDer(inner).getBytes();
      }
    } catch {
      // salts, encrypted bytes: not DER
    }
    return;
  }
  if (!Array.isArray(node.value)) return;
  const kids = node.value as Asn1[];
  if (node.type === asn1.Type.SEQUENCE && kids.length >= 2 && kids[0]!.type === asn1.Type.OCTETSTRING && kids[1]!.type === asn1.Type.INTEGER && kids[0]!.tagClass === asn1.Class.UNIVERSAL) {
    kids[1]!.value = derUnsigned(count);
  }
  for (const k of kids) patchKdf(k, count);
}
