// A certificate's names with accents, as the issuer API answers them and as the expiry e-mail
// writes them: UTF8String and BMPString values read as text, never as their bytes in Latin-1.
import { readFileSync } from 'node:fs';
import forge from 'node-forge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../src/infra/queue/queue.js';
import { certificateExpiryJob } from '../src/platform/issuers/certificate-expiry.js';
import { multipart, VALID_ISSUER } from './issuers-harness.js';
import { createTestApp, type TestApp } from './support/app.js';
import { generateNamedTestPfx } from './support/generate-certificate.js';

const { Type } = forge.asn1;
const SUBJECT = 'C=BR, ST=São Paulo, L=Jundiaí, CN=PADARIA CONCEIÇÃO LTDA:06157250000116';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.runtime.close());

describe('certificate subject with non-ASCII names', () => {
  it('is answered as stored on upload and on the issuer, and written so in the expiry e-mail', async () => {
    const names = [
      { shortName: 'C', value: 'BR' },
      { shortName: 'ST', value: 'São Paulo', valueTagClass: Type.UTF8 },
      { shortName: 'L', value: 'Jundiaí', valueTagClass: Type.BMPSTRING },
      { shortName: 'CN', value: 'PADARIA CONCEIÇÃO LTDA:06157250000116', valueTagClass: Type.UTF8 },
    ];
    // Expires in 10 days: the daily check sends the 14-day alert.
    const pfx = generateNamedTestPfx(names, 'senha', new Date(Date.now() + 10 * 86_400_000));
    const { auth } = await t.newAccount();
    await t.app.inject({ method: 'PATCH', url: '/v1/account', headers: auth, payload: { notification_email: 'fiscal@example.com' } });
    const id = (await t.app.inject({ method: 'POST', url: '/v1/issuers', headers: auth, payload: VALID_ISSUER })).json().id as string;

    const body = multipart({ password: 'senha' }, { name: 'pfx', filename: 'cert.pfx', content: pfx });
    const upload = await t.app.inject({ method: 'POST', url: `/v1/issuers/${id}/certificate`, headers: { ...auth, ...body.headers }, payload: body.payload });
    expect(upload.statusCode, upload.body).toBe(201);
    expect(upload.json()).toMatchObject({ subject: SUBJECT, issuer: SUBJECT, cnpj: '06157250000116' });
    const issuer = (await t.app.inject({ method: 'GET', url: `/v1/issuers/${id}`, headers: auth })).json();
    expect(issuer.certificate.subject).toBe(SUBJECT);

    const day = new Date().toISOString().slice(0, 10);
    const job: Job<{ day: string }> = { id: 'job_test', kind: 'certificates.expiry-check', payload: { day }, attempts: 1, max_attempts: 10, run_at: new Date() };
    await certificateExpiryJob(t.runtime.ctx, job);
    const mail = (await t.app.inject({ method: 'GET', url: '/v1/sandbox/mail', headers: auth })).json().data;
    expect(mail).toHaveLength(1);
    expect(mail[0].text).toContain(`The A1 certificate ${SUBJECT} (serial `);
  });

  it('reads the README\'s example certificate, whose names are encoded to UTF-8 twice, as São Paulo', async () => {
    const pfx = readFileSync(new URL('../examples/novo_cert_cnpj_06157250000116_senha_minhasenha.pfx', import.meta.url));
    const { auth } = await t.newAccount();
    const id = (await t.app.inject({ method: 'POST', url: '/v1/issuers', headers: auth, payload: VALID_ISSUER })).json().id as string;
    const body = multipart({ password: 'minhasenha' }, { name: 'pfx', filename: 'cert.pfx', content: pfx });
    const upload = await t.app.inject({ method: 'POST', url: `/v1/issuers/${id}/certificate`, headers: { ...auth, ...body.headers }, payload: body.payload });
    expect(upload.statusCode, upload.body).toBe(201);
    expect(upload.json().subject).toContain('ST=São Paulo');
    const issuer = (await t.app.inject({ method: 'GET', url: `/v1/issuers/${id}`, headers: auth })).json();
    expect(issuer.certificate.subject).toContain('ST=São Paulo');
    expect(issuer.certificate.subject).not.toContain('Ã');
  });
});
