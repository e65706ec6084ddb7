import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { emitSettled, emittingApp, sale } from './support/nfce-flow.js';
import { tempFile } from './support/xml-tools.js';

const run = promisify(execFile);
let t: TestApp;
let auth: { authorization: string };
let issuerId: string;
beforeAll(async () => {
  ({ t, auth, issuerId } = await emittingApp());
});
afterAll(async () => t.runtime.close());

async function decodeQr(pdf: Buffer): Promise<string[]> {
  const file = tempFile('danfe.pdf', pdf);
  await run('pdftoppm', ['-r', '300', '-png', file, join(dirname(file), 'page')]);
  const pngs = readdirSync(dirname(file)).filter((f) => f.endsWith('.png')).map((f) => join(dirname(file), f));
  const { stdout } = await run('zbarimg', ['--raw', '-q', ...pngs]);
  return stdout.split('\n').filter(Boolean);
}

// CPU-heavy (pdftoppm at 300 dpi + zbarimg): 120 s is a last guard for a loaded machine.
describe('DANFE NFC-e of an authorized note (pdftotext, pdftoppm + zbarimg)', { timeout: 120_000 }, () => {
  it('shows the key in groups of four, the total and the protocol; the QR code decodes to qrcode_url', async () => {
    await t.app.inject({ method: 'PATCH', url: `/v1/issuers/${issuerId}/danfe-settings`, headers: auth, payload: { danfePrimaryColor: '#1E88E5', danfeFooterText: 'Obrigado pela preferencia!' } });
    const { note } = await emitSettled(t, auth, sale(issuerId));
    expect(note.status).toBe('authorized');
    for (const width of [80, 58]) {
      const pdfRes = await t.app.inject({ method: 'GET', url: `/v1/nfce/${note.id}/danfe.pdf?width=${width}`, headers: auth });
      expect(pdfRes.statusCode).toBe(200);
      expect(pdfRes.headers['content-type']).toBe('application/pdf');
      const pdf = pdfRes.rawPayload;
      const { stdout: text } = await run('pdftotext', ['-layout', tempFile('d.pdf', pdf), '-']);
      const groups = note.access_key.match(/.{4}/g).join(' ');
      expect(text.replace(/\s+/g, ' ')).toContain(width === 80 ? groups : groups.slice(0, 24));
      // 2 x 18,90 + 0,35 x 16,50 = 37,80 + 5,78 (5,775 rounded half up) = 43,58
      expect(note.totals.vNF).toBe(43.58);
      expect(text).toMatch(/Valor a Pagar R\$\s+43,58/);
      expect(text).toContain(note.protocolo);
      expect(text).toMatch(/HOMOLOGA/);
      expect(text).toContain('Obrigado pela preferencia!');
      expect(await decodeQr(pdf)).toEqual([note.qrcode_url]);
    }
  });

  it('is 409 before authorization', async () => {
    const { note } = await emitSettled(t, auth, sale(issuerId), { 'x-sandbox-scenario': 'reject:778' });
    expect(note.status).toBe('rejected');
    const pdf = await t.app.inject({ method: 'GET', url: `/v1/nfce/${note.id}/danfe.pdf`, headers: auth });
    expect(pdf.statusCode).toBe(409);
  });
});
