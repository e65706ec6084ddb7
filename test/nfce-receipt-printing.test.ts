// The DANFE NFC-e in its three forms (PDF, ESC/POS, HTML).
// Item 8: the DANFE NFC-e of a large note (750 items: the XSD allows 990, the authority's 500 KB
// message limit about 800 of these; a point of sale's offline contingency note) is read and drawn off the event loop, in every form: PDF, ESC/POS and HTML. Before,
// the PDF held the loop for about a second (0.74-1.16 s measured) and every other request, /healthz
// included, waited behind it.
// Item 17: only a contingency note (tpEmis 9) prints before authorization. A signed normal emission
// (tpEmis 1) without a protocol was printed as "Pendente de autorização": a receipt the consumer takes
// for a valid note that the authority may never see.
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { danfeInputFromXml, DanfeNotAuthorizedError, renderDanfeNfce } from '../src/danfe/index.js';
import { renderDanfeEscpos } from '../src/danfe/escpos/index.js';
import { renderDanfeHtml } from '../src/danfe/html/index.js';
import { buildNfce } from '../src/documents/nfce/domain/build-nfce.js';
import { generateCnf } from '../src/fiscal/layout/cnf.js';
import { getNote } from '../src/documents/notes/storage/note-repository.js';
import { createTestApp, type TestApp } from './support/app.js';
import { NUMERIC_ISSUER, simpleSale, testContext } from './support/nfce-fixtures.js';
import { readyIssuer, sale } from './support/nfce-flow.js';
import { DanfeInputError } from '../src/danfe/index.js';
import { RECEIPT_LIMITS, renderReceiptOffThread } from '../src/danfe/receipt/index.js';

let t: TestApp;
let auth: { authorization: string };
let accountId: string;
let issuerId: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ auth, accountId } = await t.newAccount());
  issuerId = await readyIssuer(t, auth);
});
afterAll(async () => t.runtime.close());

/** ISO 8601 in São Paulo's offset, whole seconds: what a POS in SP prints as dhEmi. */
const spTime = (d: Date) => new Date(Math.floor(d.getTime() / 1000) * 1000 - 3 * 3600_000).toISOString().replace(/\.\d{3}Z$/, '-03:00');

/**
 * A 750-item sale (near the largest the authority's 500 KB message limit lets through, MOC B01:
 * 990 such items make about 610 KB) handed over as issued offline by the point of sale (its own series). */
export function bigOfflineSale(issuer: string, n = 750) {
  const items = Array.from({ length: n }, (_, i) => ({ description: `Produto de teste ${i + 1}`, quantity: 1, unit_price: 1.5, ncm: '09012100', cfop: '5102', unit: 'UN', cst_icms: '102' }));
  const number = randomInt(1, 100_000);
  const issuedAt = new Date(Date.now() - 10 * 60_000);
  return {
    ...sale(issuer, { items, payment: { method: 'dinheiro', amount: n * 1.5 } }),
    offline: { serie: 600 + randomInt(0, 280), number, cnf: generateCnf(number), issued_at: spTime(issuedAt), contingency_at: spTime(new Date(issuedAt.getTime() - 5 * 60_000)), reason: 'Sem conexao com a internet no caixa 3' },
  };
}

/** The longest the event loop went without running a 5 ms timer while `work` ran. */
async function longestStall<T>(work: () => Promise<T>): Promise<{ result: T; longest: number }> {
  let longest = 0;
  let last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  try {
    const result = await work();
    longest = Math.max(longest, performance.now() - last);
    return { result, longest };
  } finally {
    clearInterval(ticker);
  }
}

describe('the DANFE NFC-e of a 750-item offline note is drawn off the event loop', { timeout: 120_000 }, () => {
  it('PDF, ESC/POS and HTML at once: every form answers, and the loop never waits a fraction of what one PDF costs on it', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/v1/nfce/offline', headers: auth, payload: bigOfflineSale(issuerId) });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const get = (path: string) => t.app.inject({ method: 'GET', url: `/v1/nfce/${id}/${path}`, headers: auth });
    // Warm: the threads start and load their modules once.
    expect((await get('danfe.escpos?width=58')).statusCode).toBe(200);

    const { result, longest } = await longestStall(() => Promise.all([get('danfe.pdf'), get('danfe.escpos'), get('danfe.html'), get('danfe.pdf?width=58')]));
    const [pdf, escpos, html, pdf58] = result;
    for (const r of [pdf, escpos, html, pdf58]) expect(r.statusCode, r.body.slice(0, 300)).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(escpos.rawPayload.includes(Buffer.from('Produto de teste 750', 'latin1'))).toBe(true);
    expect(html.body).toContain('Produto de teste 750');
    expect(html.body).toContain('Pendente de autoriza');

    // The same PDF drawn on the event loop, as it was: what a request would have waited.
    const row = await getNote(t.db, accountId, id, { full: true });
    const started = performance.now();
    await renderDanfeNfce(danfeInputFromXml(row!.signed_xml!));
    const onLoop = performance.now() - started;
    expect(longest, `longest stall ${longest.toFixed(0)} ms; one PDF on the loop ${onLoop.toFixed(0)} ms`).toBeLessThan(onLoop / 3);
  });
});

describe('the DANFE NFC-e worker pool has limits of its own', () => {
  it('more than 990 items, or more than 1 MiB of XML, is refused with DanfeInputError (the routes\' 422)', async () => {
    const { xml } = buildNfce(simpleSale(), testContext(NUMERIC_ISSUER, { tpEmis: 9, contingency: { at: new Date('2026-07-15T15:00:00Z'), reason: 'Sem internet no caixa 3 agora' } } as never));
    const det = /<det nItem="1">[\s\S]*?<\/det>/.exec(xml)![0];
    const many = xml.replace(det, det.repeat(RECEIPT_LIMITS.items + 1));
    expect(Buffer.byteLength(many)).toBeLessThan(RECEIPT_LIMITS.xmlBytes);
    await expect(renderReceiptOffThread({ form: 'escpos', xml: many, width: 80 })).rejects.toThrow(/992 items; an NFC-e holds at most 990/);
    const huge = xml.replace('</infAdic>', `<infCpl>${'x'.repeat(RECEIPT_LIMITS.xmlBytes)}</infCpl></infAdic>`);
    await expect(renderReceiptOffThread({ form: 'pdf', xml: huge.length > xml.length ? huge : xml + ' '.repeat(RECEIPT_LIMITS.xmlBytes), width: 80 })).rejects.toBeInstanceOf(DanfeInputError);
    // Within them, the same document prints.
    expect((await renderReceiptOffThread({ form: 'html', xml, width: 58 })).toString()).toContain('EMITIDA EM CONTING');
  });
});

describe('a note that is neither authorized nor issued in contingency has no DANFE', () => {
  it('the renderers refuse a signed tpEmis 1 NFe without a protocol in every form', async () => {
    const { xml } = buildNfce(simpleSale(), testContext(NUMERIC_ISSUER));
    expect(xml).toContain('<tpEmis>1</tpEmis>');
    const input = danfeInputFromXml(xml);
    await expect(renderDanfeNfce(input)).rejects.toBeInstanceOf(DanfeNotAuthorizedError);
    expect(() => renderDanfeEscpos(input)).toThrow(DanfeNotAuthorizedError);
    await expect(renderDanfeHtml(input)).rejects.toBeInstanceOf(DanfeNotAuthorizedError);
  });

  it('over HTTP: a stored note in contingency whose XML is a normal emission answers 409 invalid_state for PDF, ESC/POS and HTML', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/v1/nfce/offline', headers: auth, payload: bigOfflineSale(issuerId, 2) });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const get = (path: string) => t.app.inject({ method: 'GET', url: `/v1/nfce/${id}/${path}`, headers: auth });
    expect((await get('danfe.html')).statusCode).toBe(200);
    // What a stored document that says one thing and signs another would leave: the
    // row in contingency, the XML a normal emission. Printed, it would read "Pendente de autorização".
    const row = (await getNote(t.db, accountId, id, { full: true }))!;
    await t.db.query('UPDATE notes SET signed_xml = $2 WHERE id = $1', [id, row.signed_xml!.replace('<tpEmis>9</tpEmis>', '<tpEmis>1</tpEmis>')]);
    for (const path of ['danfe.pdf', 'danfe.escpos', 'danfe.html?width=58']) {
      const res = await get(path);
      expect(res.statusCode, `${path}: ${res.body.slice(0, 200)}`).toBe(409);
      expect(res.json()).toMatchObject({ error: 'invalid_state', message: expect.stringMatching(/not authorized.*contingency|contingency.*authoriz/i) });
    }
    // And the row itself saying normal emission: the same 409 without reading the XML.
    await t.db.query('UPDATE notes SET tp_emis = 1 WHERE id = $1', [id]);
    for (const path of ['danfe.pdf', 'danfe.escpos', 'danfe.html']) expect((await get(path)).statusCode, path).toBe(409);
  });
});
