// Over HTTP: answers that carry secrets or personal data are never stored
// by a browser or a proxy (Cache-Control: no-store), the dashboard's hashed files keep their year of
// cache, and every document answer (XML, PDF, ESC/POS) is a download the browser does not sniff.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../src/kernel/paths.js';
import { createTestApp, type TestApp } from './support/app.js';
import { emitSettled, readyIssuer, sale } from './support/nfce-flow.js';
import { emitNfeSettled, invoice } from './support/nfe-flow.js';
import { issueNfseSettled, nfseIssuer, serviceInvoice } from './support/nfse-flow.js';
import { bearer, newEmail, PASSWORD, totpCode, verifiedUser } from './support/people.js';

let t: TestApp;
let auth: { authorization: string };

beforeAll(async () => {
  t = await createTestApp({ role: 'all' });
  ({ auth } = await t.newAccount());
}, 60_000);
afterAll(async () => t?.runtime.close());

const NO_STORE = 'no-store';

describe('Cache-Control: no-store on answers with secrets or personal data (item 13)', () => {
  it('sign-up, sign-in, refresh, the session, TOTP setup and its recovery codes, key creation: each no-store', async () => {
    const seen: Record<string, string | undefined> = {};
    const email = newEmail('cache');
    const signup = await t.app.inject({ method: 'POST', url: '/v1/auth/signup', payload: { email, password: PASSWORD, name: 'Ana Souza', account_name: 'Padaria Ana' } });
    expect(signup.statusCode, signup.body).toBe(201);
    seen['POST /v1/auth/signup'] = signup.headers['cache-control'] as string | undefined;

    const user = await verifiedUser(t.app);
    const login = await t.app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: user.email, password: PASSWORD } });
    expect(login.statusCode, login.body).toBe(200);
    seen['POST /v1/auth/login'] = login.headers['cache-control'] as string | undefined;
    const refresh = await t.app.inject({ method: 'POST', url: '/v1/auth/refresh', payload: { refresh_token: login.json().refresh_token } });
    expect(refresh.statusCode, refresh.body).toBe(200);
    seen['POST /v1/auth/refresh'] = refresh.headers['cache-control'] as string | undefined;
    const session = refresh.json().session_token as string;
    const me = await t.app.inject({ method: 'GET', url: '/v1/auth/session', headers: bearer(session) });
    seen['GET /v1/auth/session'] = me.headers['cache-control'] as string | undefined;

    const setup = await t.app.inject({ method: 'POST', url: '/v1/auth/2fa/setup', headers: bearer(session) });
    expect(setup.statusCode, setup.body).toBe(200);
    seen['POST /v1/auth/2fa/setup'] = setup.headers['cache-control'] as string | undefined;
    const verify = await t.app.inject({ method: 'POST', url: '/v1/auth/2fa/verify', headers: bearer(session), payload: { code: totpCode(setup.json().secret, Date.now()) } });
    expect(verify.statusCode, verify.body).toBe(200);
    expect(verify.json().recovery_codes).toHaveLength(10);
    seen['POST /v1/auth/2fa/verify (recovery codes)'] = verify.headers['cache-control'] as string | undefined;

    const key = await t.app.inject({ method: 'POST', url: '/v1/applications', headers: auth, payload: { name: 'caixa 1', scopes: ['nfce:read'] } });
    expect(key.statusCode, key.body).toBe(201);
    seen['POST /v1/applications (the key)'] = key.headers['cache-control'] as string | undefined;
    const list = await t.app.inject({ method: 'GET', url: '/v1/applications', headers: auth });
    seen['GET /v1/applications'] = list.headers['cache-control'] as string | undefined;
    const denied = await t.app.inject({ method: 'GET', url: '/v1/applications', headers: { authorization: 'Bearer sk_live_nope' } });
    seen['GET /v1/applications (401)'] = denied.headers['cache-control'] as string | undefined;

    expect(seen).toEqual(Object.fromEntries(Object.keys(seen).map((k) => [k, NO_STORE])));
  });

  it('the dashboard keeps its own caching: hashed files for a year, the page revalidated', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/dashboard/' });
    expect(page.headers['cache-control']).toBe('no-cache');
    const script = page.body.match(/src="(\/dashboard\/assets\/index-[^"]+\.js)"/)![1]!;
    const asset = await t.app.inject({ method: 'GET', url: script });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});

/** The headers that matter on a document answer. */
const docHeaders = (r: { statusCode: number; headers: Record<string, unknown> }) => ({
  status: r.statusCode,
  nosniff: r.headers['x-content-type-options'],
  disposition: String(r.headers['content-disposition'] ?? '').replace(/filename="[^"]+"/, 'filename="…"'),
  cache: r.headers['cache-control'],
});
const download = { status: 200, nosniff: 'nosniff', disposition: 'attachment; filename="…"', cache: NO_STORE };

describe('document answers are downloads the browser does not sniff (item 12)', () => {
  it('NFC-e: XML, PDF and ESC/POS are attachments with nosniff; the HTML receipt is shown inline, unframeable, scriptless, with nosniff', async () => {
    const issuerId = await readyIssuer(t, auth);
    const { note } = await emitSettled(t, auth, sale(issuerId));
    expect(note.status).toBe('authorized');
    const get = (path: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: `/v1/nfce/${note.id}/${path}`, headers: { ...auth, ...headers } });
    expect(docHeaders(await get('xml'))).toEqual(download);
    expect(docHeaders(await get('xml?event=cancellation')).nosniff).toBe('nosniff'); // a 409 (not canceled) is not sniffed either
    expect(docHeaders(await get('danfe.pdf'))).toEqual(download);
    expect(docHeaders(await get('danfe.escpos'))).toEqual(download);
    // The dashboard shows the DANFE in a frame of its own origin: a browser's frame request gets it inline.
    expect(docHeaders(await get('danfe.pdf', { 'sec-fetch-dest': 'iframe' }))).toEqual({ ...download, disposition: 'inline; filename="…"' });
    const html = await get('danfe.html');
    expect(docHeaders(html)).toEqual({ ...download, disposition: 'inline; filename="…"' });
    expect(html.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(html.headers['content-security-policy']).toContain("script-src 'none'");
  });

  it('NF-e and NFS-e: XML and PDF are attachments with nosniff', async () => {
    const nfeIssuer = await readyIssuer(t, auth);
    const { note: nfe } = await emitNfeSettled(t, auth, invoice(nfeIssuer));
    expect(nfe.status).toBe('authorized');
    for (const path of ['xml', 'danfe.pdf']) {
      expect(docHeaders(await t.app.inject({ method: 'GET', url: `/v1/nfe/${nfe.id}/${path}`, headers: auth })), `nfe ${path}`).toEqual(download);
    }
    const nfseIssuerId = await nfseIssuer(t, auth);
    const { note: nfse } = await issueNfseSettled(t, auth, serviceInvoice(nfseIssuerId));
    expect(nfse.status).toBe('authorized');
    for (const path of ['xml', 'danfse.pdf']) {
      expect(docHeaders(await t.app.inject({ method: 'GET', url: `/v1/nfse/${nfse.id}/${path}`, headers: auth })), `nfse ${path}`).toEqual(download);
    }
  });
});

describe('no route writes a document answer by hand', () => {
  it('every XML, PDF, ESC/POS and HTML answer of src/http/routes goes through http/document-reply.ts', () => {
    const dir = join(PROJECT_ROOT, 'src/http/routes/v1');
    const byHand = readdirSync(dir)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .filter((f) => /Content-Disposition|\.type\('(application\/(xml|pdf|octet-stream)|text\/html)/i.test(readFileSync(join(dir, f), 'utf8')));
    expect(byHand).toEqual([]);
  });
});
