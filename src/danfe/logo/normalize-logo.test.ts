import jpegJs from 'jpeg-js';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { HOSTILE, ihdr, logoPng, pngFile, progressiveJpeg } from '../../../test/support/logo-samples.js';
import { LOGO_MAX_BYTES } from './logo-limits.js';
import { LogoRefusal } from './logo-refusal.js';
import { normalizeLogo } from './normalize-logo.js';
import { deflateSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';

const refusal = (bytes: Buffer) => {
  try {
    normalizeLogo(bytes);
  } catch (err) {
    if (err instanceof LogoRefusal) return err.message;
    throw err;
  }
  throw new Error('accepted');
};

describe('normalizeLogo', () => {
  it('flattens transparency onto white paper and writes 8-bit RGB without extra chunks', () => {
    const out = normalizeLogo(logoPng({ colorType: 6, bitDepth: 16 }));
    const png = PNG.sync.read(out.bytes);
    expect(out).toMatchObject({ type: 'image/png', width: 120, height: 60 });
    expect(out.bytes[25]).toBe(2); // colour type RGB
    // The corner is fully transparent in the source: white on the receipt.
    expect([...png.data.subarray(0, 4)]).toEqual([255, 255, 255, 255]);
    // The disc keeps its colour.
    const at = (30 * 120 + 30) * 4;
    expect([...png.data.subarray(at, at + 3)]).toEqual([20, 60, 140]);
  });

  it('writes greyscale when every pixel is grey (smaller for a monochrome receipt logo)', () => {
    const out = normalizeLogo(logoPng({ colorType: 0, bitDepth: 1 }));
    expect(out.bytes[25]).toBe(0);
    expect(out.bytes[24]).toBe(8);
  });

  it('keeps a logo already in normal form byte for byte, and re-encodes a JPEG with metadata as baseline without it', () => {
    const png = logoPng({ colorType: 2, bitDepth: 8 });
    expect(normalizeLogo(png).bytes).toBe(png);
    const baseline = jpegJs.encode({ width: 32, height: 16, data: Buffer.alloc(32 * 16 * 4, 200) }, 90).data;
    expect(normalizeLogo(baseline).bytes).toBe(baseline);
    const withExif = jpegJs.encode({ width: 32, height: 16, data: Buffer.alloc(32 * 16 * 4, 200), exifBuffer: Buffer.from('Exif\0\0secret GPS here') } as never, 90).data;
    const cleaned = normalizeLogo(withExif).bytes;
    expect(cleaned.includes('secret GPS')).toBe(false);
    expect(normalizeLogo(cleaned).bytes).toBe(cleaned);
    const progressive = normalizeLogo(progressiveJpeg());
    expect(progressive.bytes.includes(Buffer.from([0xff, 0xc0]))).toBe(true);
    expect(progressive.bytes.includes(Buffer.from([0xff, 0xc2]))).toBe(false);
  });

  it('drops bytes after IEND (trailing garbage) by re-encoding', () => {
    const png = logoPng({ colorType: 2, bitDepth: 8 });
    const out = normalizeLogo(Buffer.concat([png, Buffer.from('<script>alert(1)</script>')]));
    expect(out.bytes.equals(png)).toBe(false);
    expect(out.bytes.includes('script')).toBe(false);
  });

  it('refuses by the declared size before inflating: a 1025-pixel side, too many pixels in all', () => {
    expect(refusal(pngFile(ihdr(1025, 10, 8, 2), Buffer.alloc(0)))).toMatch(/^is 1025x10 pixels; the limit is 1024x1024 and 262144 pixels in all/);
    expect(refusal(pngFile(ihdr(600, 600, 8, 2), Buffer.alloc(0)))).toMatch(/^is 600x600 pixels/);
    expect(() => normalizeLogo(logoPng({ colorType: 2, bitDepth: 8, width: 512, height: 512 }))).not.toThrow();
  });

  it('refuses an image that stays above the stored-size limit once normalized, saying what to do', () => {
    // 512x512 of noise: 786 KB as RGB PNG.
    const noise = pngFile(ihdr(512, 512, 8, 2), deflateSync(Buffer.concat(Array.from({ length: 512 }, () => Buffer.concat([Buffer.from([0]), randomBytes(512 * 3)])))));
    expect(noise.length).toBeGreaterThan(LOGO_MAX_BYTES);
    expect(refusal(noise)).toMatch(/^is \d+ bytes once converted to an 8-bit PNG for printing; the limit is 262144 bytes \(256 KiB\): use a smaller image .* or a JPEG$/);
  });

  it.each(Object.entries(HOSTILE))('refuses the hostile sample %s', (_name, make) => {
    expect(refusal(make())).toMatch(/^is /);
  });
});
