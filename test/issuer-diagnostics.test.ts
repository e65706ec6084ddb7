// The doctor. GET /v1/issuers/:id/diagnostics asks the simulated authorities with the
// issuer's own certificate and checks what usually goes wrong in production, with a verdict and what
// to do per check, in the language of Accept-Language.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';
import { ManualClock } from './support/clock.js';
import { readyIssuer, SP_ISSUER } from './support/nfce-flow.js';
import { runDoctor } from '../src/cli/doctor.js';

// The simulated authority answers with the real time (dhRecbto): start the gateway's clock from now.
const clock = new ManualClock(new Date().toISOString());
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock });
}, 60_000);
afterAll(async () => t.runtime.close());

/** The simulator dates its answers with the real clock: put the gateway's `ahead` ms after it (never back). */
const toRealTime = (ahead = 0) => clock.advance(Math.max(0, Date.now() + ahead - clock.now().getTime()));

type Check = { id: string; verdict: string; rule: string | null; message: string; action: string | null };
const diagnose = async (auth: { authorization: string }, id: string, lang?: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/v1/issuers/${id}/diagnostics`, headers: { ...auth, ...(lang ? { 'accept-language': lang } : {}) } });
  return { res, body: res.json() as { verdict: string; checks: Check[]; environment: string }, by: (cid: string) => (res.json().checks as Check[]).find((c) => c.id === cid)! };
};

describe('the doctor of an issuer', () => {
  it('a ready sandbox issuer: both authorities in operation, the clock in step; the test certificate only warns, in Portuguese', async () => {
    toRealTime();
    const { auth } = await t.newAccount('Doctor');
    const id = await readyIssuer(t, auth);
    const { res, body, by } = await diagnose(auth, id, 'pt-BR,pt;q=0.9,en;q=0.8');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-language']).toBe('pt-BR');
    expect(body.environment).toBe('homologacao');
    expect(by('certificate_validity').verdict).toBe('pass');
    expect(by('certificate_holder')).toMatchObject({ verdict: 'pass', rule: 'F03' });
    expect(by('csc').verdict).toBe('pass');
    expect(by('authority_nfe').verdict).toBe('pass');
    expect(by('authority_nfe').message).toMatch(/^NF-e SP: 107 /);
    expect(by('authority_nfce').verdict).toBe('pass');
    expect(by('dns').verdict).toBe('pass');
    expect(by('clock')).toMatchObject({ verdict: 'pass' });
    // The example e-CNPJ is a v3 certificate with Digital Signature and Non Repudiation (openssl x509
    // -text says so) but self-signed, outside ICP-Brasil: a SEFAZ would refuse it (E07 295); the
    // sandbox accepts it, so that check warns and says so.
    expect(by('certificate_key_usage')).toMatchObject({ verdict: 'pass', rule: 'E01' });
    expect(by('certificate_icp_brasil')).toMatchObject({ verdict: 'warn', rule: 'E07' });
    expect(by('certificate_icp_brasil').action).toBe('Certificado de teste: serve ao sandbox, não à produção.');
    expect(body.verdict).toBe('warning');
  });

  it('an issuer without certificate or CSC fails, says what to upload, and asks no authority; in English by default', async () => {
    const { auth } = await t.newAccount('Doctor bare');
    const created = await t.app.inject({ method: 'POST', url: '/v1/issuers', headers: auth, payload: { ...SP_ISSUER, cnpj: '11222333000181' } });
    expect(created.statusCode, created.body).toBe(201);
    const { res, body, by } = await diagnose(auth, created.json().id);
    expect(res.headers['content-language']).toBe('en');
    expect(by('certificate_validity')).toMatchObject({ verdict: 'fail', message: 'The issuer has no certificate.' });
    expect(by('certificate_validity').action).toContain('POST /v1/issuers/{id}/certificate');
    expect(by('csc').verdict).toBe('warn');
    expect(by('authority_nfe').verdict).toBe('skip');
    expect(by('clock').verdict).toBe('skip');
    expect(body.verdict).toBe('failing');
  });

  it("another account's issuer is not found", async () => {
    const a = await t.newAccount('Doctor A');
    const b = await t.newAccount('Doctor B');
    const id = await readyIssuer(t, a.auth);
    expect((await diagnose(b.auth, id)).res.statusCode).toBe(404);
  });

  it('npm run doctor asks a running gateway over HTTP and prints each check; exit 0 with warnings, 2 without a gateway', async () => {
    toRealTime();
    const { auth } = await t.newAccount('Doctor CLI');
    const id = await readyIssuer(t, auth);
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const lines: string[] = [];
    const code = await runDoctor({ issuer: id, url: address, key: auth.authorization.slice('Bearer '.length), lang: 'pt-BR' }, (l) => lines.push(l));
    expect(code, lines.join('\n')).toBe(0);
    expect(lines[0]).toBe(`Emissor ${id} (homologacao), verificado em ${clock.now().toISOString()}`);
    expect(lines.some((l) => /^ {2}ok {4}authority_nfce: NFC-e SP: 107 Serviço em Operação \(\d+ ms\)\.$/.test(l)), lines.join('\n')).toBe(true);
    expect(lines.some((l) => l.startsWith('  WARN  certificate_icp_brasil (E07): '))).toBe(true);
    expect(lines).toContain('        -> Certificado de teste: serve ao sandbox, não à produção.');
    expect(lines.at(-1)).toBe('Resultado: atenção (warning)');
    const offline: string[] = [];
    expect(await runDoctor({ issuer: id, url: 'http://127.0.0.1:9', key: 'sk_x', lang: 'en' }, (l) => offline.push(l))).toBe(2);
    expect(offline[0]).toMatch(/^No gateway answered at http:\/\/127.0.0.1:9/);
  });

  it('a gateway clock 10 minutes ahead of the authority fails the clock check (B09-10: dhEmi after the reception)', async () => {
    const { auth } = await t.newAccount('Doctor clock');
    const id = await readyIssuer(t, auth);
    toRealTime(10 * 60_000);
    const { by, body } = await diagnose(auth, id, 'en');
    expect(by('clock')).toMatchObject({ verdict: 'fail', rule: 'B09-10' });
    expect(by('clock').message).toMatch(/^This machine's clock is (59\d|60\d) s ahead of the authority's\.$/);
    expect(body.verdict).toBe('failing');
  });
});
