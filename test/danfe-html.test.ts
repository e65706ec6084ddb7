// GET /v1/nfce/:id/danfe.html in real headless Chromium (playwright-core, /usr/bin/chromium): the
// page's QR code, read from a screenshot by zbarimg, is qrcode_url; the text says what the receipt
// says; an issuer named with <script> shows the name and runs nothing; @page makes a PDF page as wide
// as the roll, one page per copy.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { switchToContingency } from '../src/documents/nfce/services/switch-to-contingency.js';
import { createTestApp, type TestApp } from './support/app.js';
import { emitSettled, readyIssuer, sale } from './support/nfce-flow.js';
import { pdfWorkspace, run } from './support/pdf-tools.js';

const CHROMIUM = '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
if (!HAVE_CHROMIUM) console.warn(`danfe-html: browser checks skipped, ${CHROMIUM} is absent (apt-get install chromium)`);

const HOSTILE_NAME = 'Padaria <script>window.pwned=1</script> & Cia';
const MM_PX = 96 / 25.4;
const MM_PT = 72 / 25.4;

let api: TestApp;
let worker: TestApp | undefined;
let auth: { authorization: string };
let issuerId: string;
let contingencyIssuerId: string;
let origin: string;
let browser: Browser | undefined;
const work = pdfWorkspace('danfe-html-');

beforeAll(async () => {
  // The API alone first: a sale stays `processing` until the contingency test switches it.
  api = await createTestApp({ role: 'api' });
  ({ auth } = await api.newAccount());
  issuerId = await readyIssuer(api, auth, { razao_social: HOSTILE_NAME });
  // Contingency is off for readyIssuer's issuers; switchToContingency acts only for an issuer that allows it.
  contingencyIssuerId = await readyIssuer(api, auth, { razao_social: HOSTILE_NAME, contingency: { mode: 'offline', wait_seconds: 10 } });
  for (const id of [issuerId, contingencyIssuerId]) {
    await api.app.inject({ method: 'PATCH', url: `/v1/issuers/${id}/danfe-settings`, headers: auth, payload: { danfeFooterText: 'Situação: volte sempre' } });
  }
  await api.app.listen({ host: '127.0.0.1', port: 0 });
  const address = api.app.server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  if (HAVE_CHROMIUM) {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await worker?.runtime.close();
  await api.runtime.close();
  work.cleanup();
});

async function startWorker(): Promise<void> {
  worker ??= await createTestApp({ role: 'all' });
}

/** The page as a browser opens it: the text it shows, what zbarimg reads in a screenshot, the PDF Chromium prints. */
async function openReceipt(id: string, width: 80 | 58) {
  const page: Page = await browser!.newPage({ deviceScaleFactor: 4, viewport: { width: Math.ceil(width * MM_PX), height: 600 } });
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.setExtraHTTPHeaders(auth);
  const res = await page.goto(`${origin}/v1/nfce/${id}/danfe.html?width=${width}`);
  expect(res?.status()).toBe(200);
  const text = ((await page.evaluate('document.body.innerText')) as string).replace(/\s+/g, ' ');
  const file = work.toFile(Buffer.alloc(0)).replace(/\.pdf$/, '.png');
  await page.screenshot({ path: file, fullPage: true });
  const { stdout } = await run('zbarimg', ['--raw', '-q', '-Sdisable', '-Sqrcode.enable', file]).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
  const geometry = (await page.evaluate(`(() => {
    const copy = document.querySelector('.copy').getBoundingClientRect();
    const lines = [...document.querySelectorAll('p.l')];
    const wraps = (p) => p.offsetHeight > parseFloat(getComputedStyle(p).lineHeight) * 1.5;
    return { width: copy.width, wrapped: lines.filter(wraps).map((p) => p.textContent),
      scripts: document.querySelectorAll('script').length, pwned: typeof window.pwned };
  })()`)) as { width: number; wrapped: string[]; scripts: number; pwned: string };
  const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
  await page.close();
  return { headers: res!.headers(), text, qr: stdout.split('\n').filter(Boolean), geometry, pdf: await work.pdfInfo(pdf), requests };
}

describe.skipIf(!HAVE_CHROMIUM)('DANFE NFC-e as HTML, in headless Chromium', { timeout: 180_000 }, () => {
  it('of a note in offline contingency (58 mm): both copies, EMITIDA EM CONTINGÊNCIA, Pendente de autorização, each QR code = qrcode_url', async () => {
    const res = await api.app.inject({ method: 'POST', url: '/v1/nfce', headers: auth, payload: sale(contingencyIssuerId) });
    expect(res.statusCode, res.body).toBe(202);
    const note = await switchToContingency(api.ctx, res.json().id, 'SEFAZ sem resposta na autorizacao: teste do DANFE HTML');
    expect(note?.status).toBe('contingency');
    const page = await openReceipt(note!.id, 58);
    expect(page.qr).toEqual([note!.qrcode_url, note!.qrcode_url]);
    expect(page.text.split('EMITIDA EM CONTINGÊNCIA')).toHaveLength(3);
    expect(page.text).toContain('Pendente de autorização');
    expect(page.text.indexOf('Via consumidor')).toBeLessThan(page.text.indexOf('Via estabelecimento'));
    expect(page.text).toContain(note!.access_key!.match(/.{4}/g)!.join(' '));
    // One 58 mm page per copy: @page is as wide as the roll and as long as a copy.
    expect(page.pdf).toMatchObject({ pages: 2 });
    expect(page.pdf.width).toBeCloseTo(58 * MM_PT, 0);
  });

  it('of an authorized note (80 and 58 mm): QR code = qrcode_url, key in groups, totals, no line wraps, the <script> issuer name shown and not run, nothing fetched', async () => {
    await startWorker();
    const { note } = await emitSettled(api, auth, sale(issuerId));
    expect(note.status).toBe('authorized');
    for (const width of [80, 58] as const) {
      const page = await openReceipt(note.id, width);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['content-security-policy']).toMatch(/script-src 'none'/);
      expect(page.headers['content-disposition']).toBe(`inline; filename="danfe-${note.access_key}.html"`);
      expect(page.qr).toEqual([note.qrcode_url]);
      expect(page.text).toContain(note.access_key.match(/.{4}/g).join(' '));
      expect(page.text).toMatch(/Valor a Pagar R\$ 43,58/);
      expect(page.text).toMatch(/Troco R\$ 6,42/);
      expect(page.text).toContain(`Protocolo de autorização: ${note.protocolo}`);
      expect(page.text).toContain('EMITIDA EM AMBIENTE DE HOMOLOGAÇÃO - SEM VALOR FISCAL');
      expect(page.text).toContain('Situação: volte sempre');
      expect(page.text).not.toContain('CONTINGÊNCIA');
      expect(page.text).toContain(HOSTILE_NAME);
      expect(page.geometry).toMatchObject({ scripts: 0, pwned: 'undefined', wrapped: [] });
      expect(page.geometry.width).toBeCloseTo(width * MM_PX, 0);
      expect(page.requests).toEqual([`${origin}/v1/nfce/${note.id}/danfe.html?width=${width}`]);
      expect(page.pdf).toMatchObject({ pages: 1 });
      expect(page.pdf.width).toBeCloseTo(width * MM_PT, 0);
    }
  });

  it('escapes what it prints: the raw HTML holds the issuer name only as text', async () => {
    await startWorker();
    const { note } = await emitSettled(api, auth, sale(issuerId));
    const res = await api.app.inject({ method: 'GET', url: `/v1/nfce/${note.id}/danfe.html`, headers: auth });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('<script');
    expect(res.body).toContain('Padaria &#60;script&#62;window.pwned=1&#60;/script&#62; &#38; Cia');
    expect(res.body).not.toMatch(/\b(src|href)=/);
  });
});
