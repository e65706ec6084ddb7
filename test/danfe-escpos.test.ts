// GET /v1/nfce/:id/danfe.escpos read back as a printer would (test/support/escpos-decoder.ts): the
// QR code the printer draws holds qrcode_url exactly, the text says what the PDF says in PC860, no
// line is wider than the roll's font A columns, and the paper is cut at the end of each copy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { switchToContingency } from '../src/documents/nfce/services/switch-to-contingency.js';
import { createTestApp, type TestApp } from './support/app.js';
import { decodeEscpos, joinedText, type DecodedStream } from './support/escpos-decoder.js';
import { emitSettled, readyIssuer, sale } from './support/nfce-flow.js';
import { eventually } from './support/webhook-receiver.js';

// The API without a worker: a sale stays `processing` until the test switches it to contingency; the
// worker app started after that transmits what the API queued.
let api: TestApp;
let worker: TestApp | undefined;
let auth: { authorization: string };
let issuerId: string;
let contingencyIssuerId: string;
beforeAll(async () => {
  api = await createTestApp({ role: 'api' });
  ({ auth } = await api.newAccount());
  issuerId = await readyIssuer(api, auth);
  // Contingency is off for readyIssuer's issuers; switchToContingency acts only for an issuer that allows it.
  contingencyIssuerId = await readyIssuer(api, auth, { contingency: { mode: 'offline', wait_seconds: 10 } });
  const settings = await api.app.inject({
    method: 'PATCH', url: `/v1/issuers/${issuerId}/danfe-settings`, headers: auth,
    // Accents PC860 has, and characters it lacks that must degrade to their plain form.
    payload: { danfeFooterText: 'Situação: obrigado pela preferência! Café “ótimo” — ŝ €' },
  });
  expect(settings.statusCode, settings.body).toBe(200);
});
afterAll(async () => {
  await worker?.runtime.close();
  await api.runtime.close();
});

/** Sales emitted from here on are transmitted (and so is what the API queued before). */
async function startWorker(): Promise<void> {
  worker ??= await createTestApp({ role: 'all' });
}

async function escpos(id: string, width?: 58 | 80): Promise<{ stream: DecodedStream; raw: Buffer }> {
  const res = await api.app.inject({ method: 'GET', url: `/v1/nfce/${id}/danfe.escpos${width ? `?width=${width}` : ''}`, headers: auth });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('application/octet-stream');
  expect(res.headers['content-disposition']).toMatch(/^attachment; filename="danfe-[0-9]{44}\.escpos"$/);
  return { stream: decodeEscpos(res.rawPayload), raw: res.rawPayload };
}

function expectWellFormed(stream: DecodedStream, columns: number, copies: number): void {
  expect(stream.commands.slice(0, 2)).toEqual(['ESC @', 'ESC t 3']);
  expect(stream.endsWithCut).toBe(true);
  // Per copy: model, module size, error correction, store, print; then the cut.
  const qr = ['GS ( k 65', 'GS ( k 67', 'GS ( k 69', 'GS ( k 80', 'GS ( k 81'];
  expect(stream.commands.filter((c) => c.startsWith('GS ( k') || c.startsWith('GS V'))).toEqual(Array.from({ length: copies }, () => [...qr, 'GS V 66']).flat());
  expect(stream.copies).toHaveLength(copies);
  for (const copy of stream.copies) {
    const wide = copy.lines.filter((l) => l.text.length > columns);
    expect(wide, `lines wider than ${columns} columns`).toEqual([]);
    expect(copy.lines.length).toBeGreaterThan(20);
  }
}

function keyGroups(key: string): string {
  return key.match(/.{4}/g)!.join(' ');
}

describe('DANFE NFC-e as ESC/POS', { timeout: 120_000 }, () => {
  it('of a note in offline contingency: two copies, each saying EMITIDA EM CONTINGÊNCIA, pending authorization and which copy it is; once transmitted, one copy with the protocol', async () => {
    const res = await api.app.inject({ method: 'POST', url: '/v1/nfce', headers: auth, payload: sale(contingencyIssuerId) });
    expect(res.statusCode, res.body).toBe(202);
    const first = res.json();
    const switched = await switchToContingency(api.ctx, first.id, 'SEFAZ sem resposta na autorizacao: teste do DANFE ESC/POS');
    expect(switched?.status).toBe('contingency');
    // The stored row: the contingency document's key (tpEmis 9 in position 35) and its offline QR code.
    const note = switched!;
    expect(note.access_key).toMatch(/^\d{34}9\d{9}$/);
    expect(note.qrcode_url).toMatch(/^https?:\/\/.+\?p=/);

    for (const [width, columns] of [[80, 48], [58, 32]] as const) {
      const { stream } = await escpos(note.id, width);
      expectWellFormed(stream, columns, 2);
      const labels = ['Via consumidor', 'Via estabelecimento'];
      stream.copies.forEach((copy, n) => {
        const text = joinedText(copy);
        expect(text).toContain('EMITIDA EM CONTINGÊNCIA');
        expect(text).toContain('Pendente de autorização');
        expect(copy.lines.map((l) => l.text.trim())).toContain(labels[n]);
        expect(text).not.toContain(labels[1 - n]!);
        expect(text).toContain(keyGroups(note.access_key));
        expect(text).not.toMatch(/Protocolo de autoriza/);
        expect(copy.qr).toEqual([{ model: 2, moduleDots: expect.any(Number), errorCorrection: 49, payload: note.qrcode_url }]);
      });
      const notice = stream.copies[0]!.lines.find((l) => l.text.includes('CONTINGÊNCIA'))!;
      expect(notice).toMatchObject({ bold: true, align: 'center' });
    }

    // A worker transmits the contingency document: authorized, printed once, still saying it was issued in contingency.
    await startWorker();
    // `contingency` is not `processing`: waitForStatus would stop there; poll until the transmission settles.
    let last: { status?: string } = {};
    const authorized = await eventually(
      async () => {
        last = (await api.app.inject({ method: 'GET', url: `/v1/nfce/${note.id}`, headers: auth })).json();
        return last.status === 'contingency' ? null : last;
      },
      60_000,
      () => `the contingency note to be transmitted: ${JSON.stringify(last)}`,
    ) as { status: string; access_key: string; protocolo: string };
    expect(authorized.status).toBe('authorized');
    expect(authorized.access_key).toBe(note.access_key);
    const { stream } = await escpos(note.id);
    expectWellFormed(stream, 48, 1);
    const text = joinedText(stream.copies[0]!);
    expect(text).toContain('EMITIDA EM CONTINGÊNCIA');
    expect(text).not.toMatch(/Pendente|Via consumidor|Via estabelecimento/);
    expect(text).toContain(`Protocolo de autorização: ${authorized.protocolo}`);
  });

  it('of an authorized note: the printer QR code holds qrcode_url, the key in groups of four, the totals with the discount, payments and change, accents in PC860, 48 and 32 columns', async () => {
    await startWorker();
    // A sale-level discount of 2,00, spread over the items (vDesc of each).
    const { note } = await emitSettled(api, auth, sale(issuerId, { discount: 2 }));
    expect(note.status).toBe('authorized');
    expect(note.totals).toMatchObject({ vProd: 43.58, vDesc: 2, vNF: 41.58, vTroco: 8.42 });
    for (const [width, columns] of [[undefined, 48], [80, 48], [58, 32]] as const) {
      const { stream } = await escpos(note.id, width);
      expectWellFormed(stream, columns, 1);
      const copy = stream.copies[0]!;
      expect(copy.qr).toEqual([{ model: 2, moduleDots: expect.any(Number), errorCorrection: 49, payload: note.qrcode_url }]);
      // 25 mm at least (docs/fiscal/danfe-nfce.md): the symbol of this payload has 53-57 modules at 8 dots/mm.
      expect(copy.qr[0]!.moduleDots).toBeGreaterThanOrEqual(4);
      const lines = copy.lines.map((l) => l.text);
      const text = joinedText(copy);
      expect(text).toContain(keyGroups(note.access_key));
      // Never a group cut in two: every line of the key holds whole groups.
      for (const line of lines.filter((l) => /^(\d{4} )+\d{4}$/.test(l.trim()))) expect(line.trim().split(' ').every((g) => g.length === 4)).toBe(true);
      // 2 x 18,90 + 0,35 x 16,50 = 43,58, less 2,00 = 41,58; paid 50,00 in cash, change 8,42.
      expect(lines).toContainEqual(expect.stringMatching(/^Qtde\. total de itens +2$/));
      expect(lines).toContainEqual(expect.stringMatching(/^Valor total R\$ +43,58$/));
      expect(lines).toContainEqual(expect.stringMatching(/^Descontos R\$ +-2,00$/));
      const itemDiscounts = lines.filter((l) => l.startsWith('  Desconto no item')).map((l) => Number(l.split('-').at(-1)!.replace(',', '.')));
      expect(itemDiscounts.reduce((a, b) => a + b, 0)).toBeCloseTo(2, 2);
      const toPay = copy.lines.find((l) => l.text.startsWith('Valor a Pagar R$'))!;
      expect(toPay).toMatchObject({ bold: true, doubleHeight: true });
      expect(toPay.text).toMatch(/ 41,58$/);
      expect(toPay.text).toHaveLength(columns);
      expect(lines).toContainEqual(expect.stringMatching(/^Dinheiro +50,00$/));
      expect(lines).toContainEqual(expect.stringMatching(/^Troco R\$ +8,42$/));
      expect(text).toContain(`Protocolo de autorização: ${note.protocolo}`);
      expect(text).toContain('EMITIDA EM AMBIENTE DE HOMOLOGAÇÃO - SEM VALOR FISCAL');
      expect(text).toContain('Documento Auxiliar da Nota Fiscal de Consumidor Eletrônica');
      expect(text).toContain('Não permite aproveitamento de crédito de ICMS');
      expect(text).toContain('CONSUMIDOR NÃO IDENTIFICADO');
      expect(text).toMatch(new RegExp(`NFC-e nº 000\\.000\\.${String(note.number).padStart(3, '0')}`));
      expect(text).toContain('Consulte pela Chave de Acesso em');
      expect(text).not.toContain('CONTINGÊNCIA');
      // Accents PC860 has decode back; the rest degrades to plain letters and ASCII, never to garbage.
      expect(text).toContain('Situação: obrigado pela preferência! Café "ótimo" - s EUR');
      expect(text).not.toMatch(/[^\x20-\x7eÇüéâãàÁçêÊèÍÔìÃÂÉÀÈôõòÚùÌÕÜÙÓáíóúñѪº]/);
    }
  });

  it('of a canceled note says NFC-e CANCELADA with the cancellation protocol', async () => {
    await startWorker();
    const { note } = await emitSettled(api, auth, sale(issuerId));
    const cancel = await api.app.inject({ method: 'POST', url: `/v1/nfce/${note.id}/cancel`, headers: auth, payload: { reason: 'Cliente desistiu da compra no caixa' } });
    const canceled = cancel.json();
    expect(canceled.status, cancel.body).toBe('canceled');
    const { stream } = await escpos(note.id, 58);
    expectWellFormed(stream, 32, 1);
    const copy = stream.copies[0]!;
    expect(copy.lines.find((l) => l.text === 'NFC-e CANCELADA')).toMatchObject({ bold: true, doubleHeight: true, align: 'center' });
    expect(joinedText(copy)).toContain(`Protocolo de cancelamento: ${canceled.cancellation.protocolo}`);
    expect(copy.qr[0]!.payload).toBe(note.qrcode_url);
  });

  it('is 409 invalid_state for a rejected note, as the PDF; 422 for another width; 404 for another account', async () => {
    await startWorker();
    const { note } = await emitSettled(api, auth, sale(issuerId), { 'x-sandbox-scenario': 'reject:778' });
    expect(note.status).toBe('rejected');
    for (const path of ['danfe.pdf', 'danfe.escpos', 'danfe.html']) {
      const res = await api.app.inject({ method: 'GET', url: `/v1/nfce/${note.id}/${path}`, headers: auth });
      expect(res.statusCode, path).toBe(409);
      expect(res.json().error, path).toBe('invalid_state');
    }
    const { note: ok } = await emitSettled(api, auth, sale(issuerId));
    const bad = await api.app.inject({ method: 'GET', url: `/v1/nfce/${ok.id}/danfe.escpos?width=76`, headers: auth });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('width');
    const other = await api.newAccount('Other');
    expect((await api.app.inject({ method: 'GET', url: `/v1/nfce/${ok.id}/danfe.escpos`, headers: other.auth })).statusCode).toBe(404);
    expect((await api.app.inject({ method: 'GET', url: `/v1/nfce/${ok.id}/danfe.escpos` })).statusCode).toBe(401);
  });
});
