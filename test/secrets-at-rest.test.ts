import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { parsePfx } from '../src/fiscal/certificate/pfx.js';
import { certFile, createIssuer, issuerTestApp, uploadCert, type IssuerTestApp } from './issuers-harness.js';
import { dumpDatabase, fragments } from './support/security-world.js';

const CERT = 'novo_cert_cnpj_06157250000116_senha_minhasenha.pfx';
const PASSWORD = 'minhasenha';

let t: IssuerTestApp;
beforeAll(async () => {
  t = await issuerTestApp();
});

describe('secrets at rest', () => {
  it('keeps no private key, certificate, password or CSC in clear in any table', async () => {
    const { auth } = await t.newAccount();
    const id = await createIssuer(t, auth);
    expect((await uploadCert(t, auth, id, CERT, PASSWORD)).statusCode).toBe(201);
    const csc = `CSC${randomBytes(12).toString('hex').toUpperCase()}`;
    const res = await t.app.inject({ method: 'POST', url: `/v1/issuers/${id}/csc`, headers: auth, payload: { id_csc: '1', csc } });
    expect(res.statusCode).toBe(201);

    const parsed = parsePfx(certFile(CERT), PASSWORD);
    const keyDer = parsed.privateKey.export({ type: 'pkcs8', format: 'der' });
    const pkcs1 = parsed.privateKey.export({ type: 'pkcs1', format: 'der' });
    const dump = await dumpDatabase(t.db);
    // The dump does hold this issuer's rows (the scan is not vacuous).
    expect(dump).toContain(id);
    expect(dump).toContain(parsed.serialNumber);

    const pemLines = (pem: string) => pem.split('\n').filter((l) => l.length === 64).slice(2, 5);
    // The certificate itself is public (every signed document carries it in KeyInfo, docs/fiscal/signature.md), so
    // it is stored encrypted but not searched for: signed NFC-e of other tests hold it legitimately.
    // The PKCS#12 file holds the certificate unencrypted, so its fragments that are certificate
    // bytes are dropped too.
    const publicCert = parsed.certificateBase64 + parsed.certificatePem.replace(/\n/g, '');
    const needles = [
      PASSWORD, csc, csc.toLowerCase(), 'PRIVATE KEY',
      ...pemLines(parsed.privateKeyPem),
      ...fragments(keyDer), ...fragments(pkcs1), ...fragments(certFile(CERT)),
    ].filter((f) => !publicCert.includes(f));
    // The detector itself finds each encoding when it is there.
    for (const leaked of [parsed.privateKeyPem, `\\x${keyDer.toString('hex')}`, JSON.stringify({ pfx: certFile(CERT).toString('base64') })]) {
      expect(needles.some((f) => leaked.includes(f))).toBe(true);
    }
    expect(needles.filter((f) => dump.includes(f))).toEqual([]);
  });
});
