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

  it('of a canceled note says NFC-e CANCELADA above the title, with the protocol and the time the authority registered it; an authorized one does not', async () => {
    const authorized = (await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: { ...auth, prefer: 'wait=8' }, payload: sale(issuerId) })).json();
    const note = (await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: { ...auth, prefer: 'wait=8' }, payload: sale(issuerId) })).json();
    expect([authorized.status, note.status]).toEqual(['authorized', 'authorized']);
    const cancel = await t.app.inject({ method: 'POST', url: `/v1/nfce/${note.id}/cancel`, headers: auth, payload: { reason: 'Cliente desistiu da compra no caixa' } });
    const canceled = cancel.json();
    expect(canceled).toMatchObject({ status: 'canceled', cancellation: { protocolo: expect.stringMatching(/^\d{15}$/) } });
    const pdfText = async (id: string, width: number) => {
      const pdf = await t.app.inject({ method: 'GET', url: `/v1/nfce/${id}/danfe.pdf?width=${width}`, headers: auth });
      expect(pdf.statusCode).toBe(200);
      return (await run('pdftotext', ['-layout', tempFile('d.pdf', pdf.rawPayload), '-'])).stdout;
    };
    // The time the authority registered the event (dhRegEvento, the state's local time), as the
    // authorization's time is printed: not the gateway's own UTC clock reading.
    const eventXml = (await t.app.inject({ method: 'GET', url: `/v1/nfce/${note.id}/xml?event=cancellation`, headers: auth })).body;
    const at = /<retEvento[\s\S]*<dhRegEvento>(\d{4})-(\d\d)-(\d\d)T(\d\d:\d\d:\d\d)[+-]\d\d:\d\d<\/dhRegEvento>/.exec(eventXml);
    expect(at, eventXml).not.toBeNull();
    const registered = `${at![3]}/${at![2]}/${at![1]} ${at![4]}`;
    for (const width of [80, 58]) {
      const text = await pdfText(note.id, width);
      expect(text).toContain('NFC-e CANCELADA');
      expect(text.replace(/\s+/g, ' ')).toContain(`Protocolo de cancelamento: ${canceled.cancellation.protocolo} - ${registered}`);
      // Above the items: the first thing read on the receipt, not a footnote.
      expect(text.indexOf('NFC-e CANCELADA')).toBeLessThan(text.indexOf('Documento Auxiliar'));
      expect(await pdfText(authorized.id, width)).not.toMatch(/CANCELAD|cancelamento/i);
    }
    // Settled by consultation without the event document: the gateway's own time, in São Paulo's (-03:00).
    await t.runtime.ctx.db.query('UPDATE notes SET cancel_proc_xml = NULL WHERE id = $1', [note.id]);
    const local = new Date(new Date(canceled.cancellation.canceled_at).getTime() - 3 * 3600_000).toISOString();
    const recorded = `${local.slice(8, 10)}/${local.slice(5, 7)}/${local.slice(0, 4)} ${local.slice(11, 19)}`;
    expect((await pdfText(note.id, 80)).replace(/\s+/g, ' ')).toContain(`Protocolo de cancelamento: ${canceled.cancellation.protocolo} - ${recorded}`);
  });

  it('is 409 before authorization', async () => {
    const { note } = await emitSettled(t, auth, sale(issuerId), { 'x-sandbox-scenario': 'reject:778' });
    expect(note.status).toBe('rejected');
    const pdf = await t.app.inject({ method: 'GET', url: `/v1/nfce/${note.id}/danfe.pdf`, headers: auth });
    expect(pdf.statusCode).toBe(409);
  });
});
