// The DANFE logo. Every hostile sample of the issue is refused with 422 on danfeLogo and
// leaves the issuer as it was; every legitimate PNG/JPEG variant is accepted, stored normalized
// (8-bit greyscale/RGB PNG without interlacing, or baseline JPEG) and drawn on the DANFE (checked
// with poppler's pdfimages/pdftotext and zbar); a hostile logo already in the database, as an older
// version stored it, never crashes the process: the DANFE is printed without it and says why.
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { emitSettled, emittingApp, sale } from './support/nfce-flow.js';
import { tempFile } from './support/xml-tools.js';
import { dataUrl, HOSTILE, jpegFrameOf, logoPng, pngHeaderOf, progressiveJpeg } from './support/logo-samples.js';

const run = promisify(execFile);
let t: TestApp;
let auth: { authorization: string };
let issuerId: string;
let note: { id: string; access_key: string; qrcode_url: string };

beforeAll(async () => {
  ({ t, auth, issuerId } = await emittingApp());
  ({ note } = await emitSettled(t, auth, sale(issuerId)));
  expect(note).toMatchObject({ status: 'authorized' });
});
afterAll(async () => t.runtime.close());

const patchLogo = (danfeLogo: string | null, extra: object = {}) =>
  t.app.inject({ method: 'PATCH', url: `/v1/issuers/${issuerId}/danfe-settings`, headers: auth, payload: { danfeLogo, ...extra } });
const storedSettings = async () => (await t.app.inject({ method: 'GET', url: `/v1/issuers/${issuerId}`, headers: auth })).json().danfe_settings;
const danfe = (width = 80) => t.app.inject({ method: 'GET', url: `/v1/nfce/${note.id}/danfe.pdf?width=${width}`, headers: auth });

/** The images poppler finds in the PDF: width, height and colour space of each. */
async function pdfImages(pdf: Buffer): Promise<{ width: number; height: number; color: string }[]> {
  const { stdout } = await run('pdfimages', ['-list', tempFile('d.pdf', pdf)]);
  return stdout
    .split('\n')
    .slice(2)
    .filter((l) => l.trim())
    .map((l) => l.trim().split(/\s+/))
    .map((f) => ({ width: Number(f[3]), height: Number(f[4]), color: f[5]! }));
}

async function pdfText(pdf: Buffer): Promise<string> {
  return (await run('pdftotext', ['-layout', tempFile('d.pdf', pdf), '-'])).stdout;
}

async function decodeQr(pdf: Buffer): Promise<string[]> {
  const file = tempFile('danfe.pdf', pdf);
  await run('pdftoppm', ['-r', '300', '-png', file, join(dirname(file), 'page')]);
  const pngs = readdirSync(dirname(file)).filter((f) => f.endsWith('.png')).map((f) => join(dirname(file), f));
  const { stdout } = await run('zbarimg', ['--raw', '-q', '-Sdisable', '-Sqrcode.enable', ...pngs]);
  return stdout.split('\n').filter(Boolean);
}

/** The DANFE answers 200 with the key, the QR code decodes and the logo (if any) is the one image. */
async function expectDanfeWithLogo(logo: { width: number; height: number } | null, width = 80): Promise<Buffer> {
  const res = await danfe(width);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  const pdf = res.rawPayload;
  const text = (await pdfText(pdf)).replace(/\s+/g, ' ');
  expect(text).toContain(note.access_key.match(/.{4}/g)!.join(' ').slice(0, 24));
  const images = await pdfImages(pdf);
  expect(images.map(({ width, height }) => ({ width, height }))).toEqual(logo ? [logo] : []);
  return pdf;
}

// CPU-heavy (logo decoding, PDF rendering, pdftoppm + zbarimg): 120 s is a last guard for a loaded machine.
describe('PATCH danfe-settings refuses every hostile logo with 422 on danfeLogo', { timeout: 120_000 }, () => {
  const cases: [string, string, Buffer, RegExp][] = [
    ['corrupt IDAT (not zlib data)', 'image/png', HOSTILE.corruptIdat(), /^is damaged: its image data cannot be decompressed .*; export it again$/],
    ['IDAT byte changed, CRC kept', 'image/png', HOSTILE.badCrc(), /^is damaged: the CRC of its IDAT chunk does not match; export it again$/],
    ['20000x20000 declared, 10 KB bomb', 'image/png', HOSTILE.bomb20000(), /^is 20000x20000 pixels; the limit is 1024x1024 and 262144 pixels in all \(e\.g\. 512x512\)/],
    ['4000x4000 complete bomb', 'image/png', HOSTILE.bomb4000(), /^is 4000x4000 pixels; the limit is 1024x1024/],
    ['16x16 whose data inflates to 50 MB', 'image/png', HOSTILE.overlongIdat(), /^is damaged: its image data holds more than its 16x16 pixels need; export it again$/],
    ['magic bytes only', 'image/png', HOSTILE.magicOnlyPng(), /^is not a complete PNG image \(the file ends before its header\); upload the whole file$/],
    ['8-byte JPEG', 'image/jpeg', HOSTILE.eightByteJpeg(), /^is not a complete JPEG image \(the file ends before its frame header\); upload the whole file$/],
    ['0x0 PNG', 'image/png', HOSTILE.zeroByZeroPng(), /^is 0x0 pixels; a logo needs at least 1x1$/],
    ['PNG cut before IEND', 'image/png', HOSTILE.truncatedPng(), /^is truncated: the file ends before its IEND chunk; upload the whole file$/],
  ];

  it.each(cases)('%s', async (_name, type, bytes, message) => {
    const before = await storedSettings();
    const res = await patchLogo(dataUrl(type, bytes), { danfeFooterText: 'must not be stored either' });
    expect(res.statusCode, res.body).toBe(422);
    const body = res.json();
    expect(body.error).toBe('validation_error');
    expect(body.details).toHaveLength(1);
    expect(body.details[0].field).toBe('danfeLogo');
    expect(body.details[0].message).toMatch(message);
    // Nothing half-written: neither the logo nor the footer of the same request.
    expect(await storedSettings()).toEqual(before);
  });

  it('after all of them the DANFE still renders and its QR code decodes; the process answers /healthz', async () => {
    const pdf = await expectDanfeWithLogo(null);
    expect(await decodeQr(pdf)).toEqual([note.qrcode_url]);
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});

describe('PATCH danfe-settings accepts every legitimate PNG/JPEG variant, stores it normalized, the DANFE draws it', { timeout: 120_000 }, () => {
  const variants: [string, string, Buffer, { width: number; height: number }][] = [
    ['palette PNG with tRNS transparency', 'image/png', logoPng({ colorType: 3, bitDepth: 8, transparency: true }), { width: 120, height: 60 }],
    ['2-bit palette PNG', 'image/png', logoPng({ colorType: 3, bitDepth: 2 }), { width: 120, height: 60 }],
    ['16-bit RGBA PNG', 'image/png', logoPng({ colorType: 6, bitDepth: 16 }), { width: 120, height: 60 }],
    ['8-bit RGBA PNG', 'image/png', logoPng({ colorType: 6, bitDepth: 8, width: 512, height: 512 }), { width: 512, height: 512 }],
    ['16-bit greyscale PNG', 'image/png', logoPng({ colorType: 0, bitDepth: 16 }), { width: 120, height: 60 }],
    ['1-bit greyscale PNG', 'image/png', logoPng({ colorType: 0, bitDepth: 1, width: 97, height: 33 }), { width: 97, height: 33 }],
    ['greyscale + alpha PNG', 'image/png', logoPng({ colorType: 4, bitDepth: 8 }), { width: 120, height: 60 }],
    ['interlaced (Adam7) RGBA PNG', 'image/png', logoPng({ colorType: 6, bitDepth: 8, interlace: true, width: 101, height: 47 }), { width: 101, height: 47 }],
    ['widest allowed PNG (1024x256)', 'image/png', logoPng({ colorType: 2, bitDepth: 8, width: 1024, height: 256 }), { width: 1024, height: 256 }],
    ['progressive JPEG', 'image/jpeg', progressiveJpeg(), { width: 240, height: 120 }],
  ];

  it.each(variants)('%s', async (_name, type, bytes, size) => {
    const res = await patchLogo(dataUrl(type, bytes));
    expect(res.statusCode, res.body).toBe(200);
    const stored = res.json().danfe_settings.danfeLogo as string;
    const m = /^data:(image\/(?:png|jpeg));base64,(.+)$/.exec(stored)!;
    expect(m[1]).toBe(type);
    const out = Buffer.from(m[2]!, 'base64');
    if (type === 'image/png') {
      const h = pngHeaderOf(out);
      expect({ width: h.width, height: h.height, bitDepth: h.bitDepth, interlace: h.interlace }).toEqual({ ...size, bitDepth: 8, interlace: 0 });
      expect([0, 2]).toContain(h.colorType);
      expect(new Set(h.chunks)).toEqual(new Set(['IHDR', 'IDAT', 'IEND']));
    } else {
      expect(jpegFrameOf(out)).toMatchObject({ marker: 0xc0, ...size });
    }
    // Sending back what GET shows stores the same bytes (normalizing is idempotent).
    const again = await patchLogo(stored);
    expect(again.json().danfe_settings.danfeLogo).toBe(stored);
    await expectDanfeWithLogo(size);
  });

  it.each([80, 58])('the DANFE with the largest allowed logo still carries a QR code that decodes (%i mm)', async (width) => {
    expect((await patchLogo(dataUrl('image/png', logoPng({ colorType: 6, bitDepth: 8, width: 512, height: 512 })))).statusCode).toBe(200);
    const pdf = await expectDanfeWithLogo({ width: 512, height: 512 }, width);
    expect(await decodeQr(pdf)).toEqual([note.qrcode_url]);
  });
});

describe('a hostile logo stored by an older version (written straight into the database)', () => {
  const storeRaw = (type: string, bytes: Buffer) =>
    t.db.query('UPDATE issuers SET danfe_logo = $1, danfe_logo_type = $2 WHERE id = $3', [bytes, type, issuerId]);

  it.each([
    ['corrupt IDAT (crashed the process)', 'image/png', HOSTILE.corruptIdat()],
    ['20000x20000 bomb', 'image/png', HOSTILE.bomb20000()],
    ['4000x4000 bomb', 'image/png', HOSTILE.bomb4000()],
    ['magic bytes only', 'image/png', HOSTILE.magicOnlyPng()],
    ['8-byte JPEG', 'image/jpeg', HOSTILE.eightByteJpeg()],
    ['0x0 PNG', 'image/png', HOSTILE.zeroByZeroPng()],
    ['a GIF stored as PNG', 'image/png', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00', 'latin1')],
  ] as const)('%s: the DANFE is printed without the logo and says why; the process keeps serving', async (_name, type, bytes) => {
    await storeRaw(type, bytes);
    const res = await danfe();
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['x-danfe-warning']).toMatch(/^The issuer's DANFE logo cannot be printed \(it .+\); the DANFE was printed without it\. Set the logo again with PATCH \/v1\/issuers\/iss_\w+\/danfe-settings$/);
    expect(await pdfImages(res.rawPayload)).toEqual([]);
    expect(await pdfText(res.rawPayload)).toMatch(/Protocolo de autoriza/);
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });

  it.each([
    ['RGBA PNG', logoPng({ colorType: 6, bitDepth: 8 })],
    ['palette PNG with tRNS', logoPng({ colorType: 3, bitDepth: 8, transparency: true })],
    ['interlaced PNG', logoPng({ colorType: 2, bitDepth: 8, interlace: true })],
  ])('a sound but not normalized %s is normalized on the way to the PDF and drawn', async (_name, bytes) => {
    await storeRaw('image/png', bytes);
    const res = await danfe();
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-danfe-warning']).toBeUndefined();
    expect(await pdfImages(res.rawPayload)).toEqual([{ width: 120, height: 60, color: 'rgb' }]);
  });
});
