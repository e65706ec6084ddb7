import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../src/kernel/clock.js';
import { parsePfx } from '../src/fiscal/certificate/pfx.js';
import { secretBoxFor } from '../src/infra/security/secret-box-registry.js';
import { loadIssuerSigningMaterial } from '../src/platform/issuers/issuer-signing-material.js';
import { registerCsc } from '../src/platform/issuers/register-csc.js';
import { uploadCertificate } from '../src/platform/issuers/upload-certificate.js';
import type { RegisteredIssuer } from '../src/kernel/issuer.js';
import { certFile, createIssuer, issuerTestApp, multipart, uploadCert, VALID_ISSUER, type IssuerTestApp } from './issuers-harness.js';
import { pfxOpenerState } from '../src/fiscal/certificate/pfx-worker-pool.js';
import { generateTestPfx } from './support/generate-certificate.js';
import { buildPfx, ecKeyBag } from './support/hostile-pfx.js';

const CNPJ_CERT = 'novo_cert_cnpj_06157250000116_senha_minhasenha.pfx';
let t: IssuerTestApp;
let accountId: string;

beforeAll(async () => {
  t = await issuerTestApp();
  ({ accountId } = await t.newAccount());
});

const issuer = (cnpj = VALID_ISSUER.cnpj, ambiente = 'homologacao') =>
  t.newAccount().then(async (a) => ({ ...a, id: await createIssuer(t, a.auth, { ...VALID_ISSUER, cnpj, ambiente }) }));

const getIssuer = async (a: { authorization: string }, id: string) =>
  (await t.app.inject({ method: 'GET', url: `/v1/issuers/${id}`, headers: a })).json();

describe('POST /v1/issuers/:id/certificate', () => {
  it('accepts an e-CNPJ certificate of the issuer and shows its facts, never the key', async () => {
    const { id, auth: a } = await issuer();
    const res = await uploadCert(t, a, id, CNPJ_CERT, 'minhasenha');
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      issuer_id: id,
      status: 'valid',
      cnpj: '06157250000116',
      storage_mode: 'envelope',
      not_before: '2024-06-07T14:56:44.000Z',
      warnings: [],
    });
    expect(body.subject).toContain('06.157.250/0001-16');
    expect(body.serial_number).toMatch(/^[0-9A-F]+$/);
    expect(res.body).not.toMatch(/PRIVATE KEY|minhasenha/);
    const after = await getIssuer(a, id);
    expect(after.certificate).toMatchObject({ status: 'valid', cnpj: '06157250000116', serial_number: body.serial_number, storage_mode: 'envelope' });
    expect(after.missing).toEqual(['csc']);
  });

  it('refuses each bad upload with certificate_invalid and a plain message', async () => {
    const { id, auth: a } = await issuer();
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(200)]);
    const cases: [string | Buffer, string, RegExp][] = [
      [CNPJ_CERT, 'wrong-password', /password is wrong/],
      [png, 'x', /not a valid PKCS#12/],
      [randomBytes(2048), 'x', /not a valid PKCS#12/],
      ['novo_expired_certificate.pfx', 'associacao', /expired on 2010-10-02/],
      ['expired_certificate.pfx', 'associacao', /expired on 2010-10-02/],
    ];
    for (const [file, password, message] of cases) {
      const res = await uploadCert(t, a, id, file, password);
      expect(res.statusCode, String(message)).toBe(422);
      expect(res.json()).toMatchObject({ error: 'certificate_invalid' });
      expect(res.json().message).toMatch(message);
      expect(res.body).not.toContain(password === 'x' ? '\u0000' : password);
    }
    expect((await getIssuer(a, id)).certificate.status).toBe('missing');
  });

  it('refuses a certificate whose CNPJ root differs from the issuer', async () => {
    const { id, auth: a } = await issuer('11222333000181');
    const res = await uploadCert(t, a, id, CNPJ_CERT, 'minhasenha');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      error: 'certificate_invalid',
      message: "The certificate belongs to CNPJ 06157250000116, whose root 06157250 differs from the issuer's 11222333.",
    });
  });

  it('accepts a same-root certificate for another branch of the company', async () => {
    const { id, auth: a } = await issuer('06157250000205');
    expect((await uploadCert(t, a, id, CNPJ_CERT, 'minhasenha')).statusCode).toBe(201);
  });

  it('accepts a certificate without CNPJ in the sandbox with a warning, including the legacy RC2-40 file', async () => {
    const { id, auth: a } = await issuer();
    for (const file of ['novo_test_certificate.pfx', 'test_certificate.pfx']) {
      const res = await uploadCert(t, a, id, file, 'nfephp');
      expect(res.statusCode, file).toBe(201);
      expect(res.json().cnpj).toBeNull();
      expect(res.json().warnings).toHaveLength(1);
      expect(res.json().warnings[0]).toMatch(/without a CNPJ.*Accepted in the sandbox only/);
    }
    const cpf = await uploadCert(t, a, id, 'novo_cert_cpf_90483926086_minhasenha.pfx', 'minhasenha');
    expect(cpf.json().warnings[0]).toMatch(/e-CPF certificate \(CPF 90483926086\)/);
  });

  it('refuses a certificate without CNPJ in production', async () => {
    const prod = await issuerTestApp({ env: { GATEWAY_ENV: 'production' } });
    const { auth: a } = await prod.newAccount();
    const id = await createIssuer(prod, a);
    const res = await uploadCert(prod, a, id, 'novo_test_certificate.pfx', 'nfephp');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: 'certificate_invalid' });
    expect(res.json().message).toMatch(/requires an e-CNPJ certificate whose CNPJ root matches the issuer's \(06157250\)/);
    expect((await uploadCert(prod, a, id, CNPJ_CERT, 'minhasenha')).statusCode).toBe(201);
    await prod.app.close();
  });

  it('keeps the previous certificate when a replacement is refused', async () => {
    const { id, auth: a } = await issuer();
    const first = (await uploadCert(t, a, id, CNPJ_CERT, 'minhasenha')).json();
    expect((await uploadCert(t, a, id, 'novo_expired_certificate.pfx', 'associacao')).statusCode).toBe(422);
    expect((await uploadCert(t, a, id, CNPJ_CERT, 'bad')).statusCode).toBe(422);
    const after = await getIssuer(a, id);
    expect(after.certificate).toMatchObject({ status: 'valid', serial_number: first.serial_number, cnpj: '06157250000116' });
  });

  it('asks for the missing parts and caps the file size', async () => {
    const { id, auth: a } = await issuer();
    const noPassword = await t.app.inject({
      method: 'POST',
      url: `/v1/issuers/${id}/certificate`,
      headers: { ...a, 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x\r\nContent-Disposition: form-data; name="other"\r\n\r\nv\r\n--x--\r\n',
    });
    expect(noPassword.statusCode).toBe(422);
    expect(noPassword.json().details.map((d: { field: string }) => d.field)).toEqual(['pfx', 'password']);
    expect((await uploadCert(t, a, id, randomBytes(65 * 1024), 'x')).statusCode).toBe(413);
    const json = await t.app.inject({ method: 'POST', url: `/v1/issuers/${id}/certificate`, headers: a, payload: { password: 'x' } });
    expect(json.statusCode).toBe(415);
  });
});

// A file may neither freeze the event loop (defect 3: iteration counts, parsing on the
// main thread) nor bring a key that stalls every sale (defect 4: RSA above 4096 bits).
// CPU-heavy (RSA-4096 key generation, 100,000-iteration key derivation): about a second each alone,
// up to 20 s on a loaded machine; 120 s is a last guard.
describe('POST /v1/issuers/:id/certificate with hostile or unusable files', { timeout: 120_000 }, () => {
  const PASSWORD = 'senha-de-teste';
  const refusalOf = (res: { statusCode: number; json(): { error: string; message: string; details?: { field: string; message: string }[] } }) => {
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.error).toBe('certificate_invalid');
    expect(body.details).toEqual([{ field: 'pfx', message: body.message }]);
    return body.message;
  };

  it('refuses 10 million MAC, key (PBKDF2) or certificate (PBE) iterations at once, naming the limit', async () => {
    const { id, auth: a } = await issuer();
    const files = [
      buildPfx({ password: PASSWORD, macIterations: 10_000_000 }),
      buildPfx({ password: PASSWORD, keyIterations: 10_000_000 }),
      buildPfx({ password: PASSWORD, certIterations: 10_000_000 }),
    ];
    for (const file of files) {
      const [res, health] = await Promise.all([uploadCert(t, a, id, file, PASSWORD), t.app.inject({ method: 'GET', url: '/healthz' })]);
      expect(refusalOf(res)).toMatch(/^The file asks for 10000000 key-derivation iterations \(.*\); certificates from ICP-Brasil use a few thousand; the limit is 100000\.$/);
      expect(health.statusCode).toBe(200);
    }
    expect((await getIssuer(a, id)).certificate.status).toBe('missing');
  });

  it('answers /healthz while an allowed but slow file is being opened', async () => {
    const { id, auth: a } = await issuer();
    // 100,000 iterations for the MAC and the key: allowed, and about a second of key derivation.
    const slow = buildPfx({ password: PASSWORD, macIterations: 100_000, keyIterations: 100_000 });
    let settled = false;
    const upload = uploadCert(t, a, id, slow, PASSWORD).finally(() => (settled = true));
    // Wait until a certificate thread is at work on it, then ask for the liveness probe.
    while (pfxOpenerState().threads - pfxOpenerState().idle === 0 && !settled) await new Promise((r) => setImmediate(r));
    const health = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(settled).toBe(false);
    const res = await upload;
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().cnpj).toBe('06157250000116');
  });

  it('accepts RSA 2048 and 4096 keys, refuses 1024 and 16384 bits and EC keys, saying why', async () => {
    const { id, auth: a } = await issuer();
    expect((await uploadCert(t, a, id, generateTestPfx(VALID_ISSUER.cnpj, PASSWORD, 4096), PASSWORD)).statusCode).toBe(201);
    const accepted = (await getIssuer(a, id)).certificate.serial_number;
    expect(refusalOf(await uploadCert(t, a, id, 'rsa16384_cnpj_06157250000116_senha_minhasenha.pfx', 'minhasenha'))).toBe(
      "The certificate's key is RSA 16384 bits, larger than the 4096 the gateway accepts (each signature would take too long): ICP-Brasil A1 certificates use RSA 2048 bits.",
    );
    expect(refusalOf(await uploadCert(t, a, id, generateTestPfx(VALID_ISSUER.cnpj, PASSWORD, 1024), PASSWORD))).toBe(
      "The certificate's key is RSA 1024 bits, too weak: ICP-Brasil A1 certificates use RSA 2048 bits; the gateway accepts 2048 to 4096.",
    );
    expect(refusalOf(await uploadCert(t, a, id, buildPfx({ password: PASSWORD, keyBag: ecKeyBag() }), PASSWORD))).toMatch(/key is EC, not RSA: SEFAZ verifies only RSA-SHA1/);
    // Refusals leave the accepted certificate in place.
    expect((await getIssuer(a, id)).certificate.serial_number).toBe(accepted);
    expect((await uploadCert(t, a, id, generateTestPfx(VALID_ISSUER.cnpj, PASSWORD), PASSWORD)).statusCode).toBe(201);
  });

  it('names the password field when the password is wrong', async () => {
    const { id, auth: a } = await issuer();
    const res = await uploadCert(t, a, id, CNPJ_CERT, 'wrong-password');
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([{ field: 'password', message: 'The certificate password is wrong.' }]);
  });
});

describe('POST /v1/issuers/:id/csc', () => {
  it('registers the CSC and shows only its id', async () => {
    const { id, auth: a } = await issuer();
    const res = await t.app.inject({ method: 'POST', url: `/v1/issuers/${id}/csc`, headers: a, payload: { id_csc: '000001', csc: 'A1B2C3D4E5F6G7H8I9J0' } });
    expect(res.statusCode).toBe(201);
    expect(Object.keys(res.json()).sort()).toEqual(['id_csc', 'registered_at']);
    expect(res.json().id_csc).toBe('000001');
    expect((await getIssuer(a, id)).csc).toEqual(res.json());
    for (const payload of [{ id_csc: '1234567', csc: 'A1B2C3D4E5F6G7H8I9J0' }, { id_csc: '1', csc: 'short' }, { id_csc: 1, csc: 'A1B2C3D4E5F6G7H8I9J0' }]) {
      const bad = await t.app.inject({ method: 'POST', url: `/v1/issuers/${id}/csc`, headers: a, payload });
      expect(bad.statusCode).toBe(422);
      expect(bad.body).not.toContain('A1B2C3D4E5F6G7H8I9J0');
    }
  });
});

describe('loadIssuerSigningMaterial and hooks', () => {
  it('returns the decrypted key, certificate and CSC, reusing them until a secret is replaced', async () => {
    const { id, auth: a, accountId: acc } = await issuer();
    const secrets = secretBoxFor(t.config);
    expect(await loadIssuerSigningMaterial(t.db, secrets, accountId, id)).toBeUndefined(); // another account
    expect(await loadIssuerSigningMaterial(t.db, secrets, acc, id)).toEqual({ certificate: null, csc: null, csrt: null });

    await uploadCert(t, a, id, CNPJ_CERT, 'minhasenha');
    await t.app.inject({ method: 'POST', url: `/v1/issuers/${id}/csc`, headers: a, payload: { id_csc: '000002', csc: 'ZZ1B2C3D4E5F6G7H8I9J0' } });
    const m1 = (await loadIssuerSigningMaterial(t.db, secrets, acc, id))!;
    expect(m1.csc).toEqual({ id: '2', token: 'ZZ1B2C3D4E5F6G7H8I9J0' });
    expect(m1.certificate!.cnpj).toBe('06157250000116');
    expect(m1.certificate!.privateKey.asymmetricKeyType).toBe('rsa');
    expect(m1.certificate!.certificateBase64).toBe(certificateOf(CNPJ_CERT, 'minhasenha').certificateBase64);
    const again = (await loadIssuerSigningMaterial(t.db, secrets, acc, id))!;
    expect(again.certificate).toBe(m1.certificate); // cached: the key is not decrypted and parsed again
    expect(again.csc).toBe(m1.csc);

    await uploadCert(t, a, id, 'novo_test_certificate.pfx', 'nfephp');
    const m2 = (await loadIssuerSigningMaterial(t.db, secrets, acc, id))!;
    expect(m2.certificate).not.toBe(m1.certificate);
    expect(m2.certificate!.cnpj).toBeNull();
    expect(m2.certificate!.fingerprintSha256).toBe(certificateOf('novo_test_certificate.pfx', 'nfephp').fingerprintSha256);
  });

  it('calls the sandbox hooks with the stored certificate and CSC', async () => {
    const { id, accountId: acc } = await issuer();
    const seen: string[] = [];
    const deps = {
      db: t.db,
      clock: systemClock,
      env: 'sandbox' as const,
      secrets: secretBoxFor(t.config),
      hooks: {
        onCertificateStored: (i: RegisteredIssuer, pem: string) => void seen.push(`cert ${i.id} ${pem.split('\n')[0]}`),
        onCscStored: (i: RegisteredIssuer, idCsc: string, csc: string) => void seen.push(`csc ${i.id} ${idCsc} ${csc}`),
      },
    };
    await uploadCertificate(deps, acc, id, certFile(CNPJ_CERT), 'minhasenha');
    await registerCsc(deps, acc, id, '7', 'QWERTYUIOPASDFGHJKL1');
    expect(seen).toEqual([`cert ${id} -----BEGIN CERTIFICATE-----`, `csc ${id} 7 QWERTYUIOPASDFGHJKL1`]);
  });
});

function certificateOf(file: string, password: string) {
  return parsePfx(certFile(file), password);
}

describe('POST /v1/issuers/:id/certificate with an Idempotency-Key', () => {
  const upload = (a: { authorization: string }, id: string, key: string, password: string, content = certFile(CNPJ_CERT)) => {
    // A new multipart boundary on every call, as curl and browsers do.
    const body = multipart({ password }, { name: 'pfx', filename: 'a1.pfx', content });
    return t.app.inject({ method: 'POST', url: `/v1/issuers/${id}/certificate`, headers: { ...a, ...body.headers, 'idempotency-key': key }, payload: body.payload });
  };

  it('the same file and password again replay the first answer, whatever the multipart boundary', async () => {
    const { id, auth: a } = await issuer();
    const key = `cert-${randomBytes(6).toString('hex')}`;
    const first = await upload(a, id, key, 'minhasenha');
    expect(first.statusCode).toBe(201);
    const again = await upload(a, id, key, 'minhasenha');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotency-replay']).toBe('true');
    expect(again.json()).toEqual(first.json());
  });

  it('the same key with another file or another password is a conflict, not the first answer', async () => {
    const { id, auth: a } = await issuer();
    const key = `cert-${randomBytes(6).toString('hex')}`;
    expect((await upload(a, id, key, 'minhasenha')).statusCode).toBe(201);
    const otherPassword = await upload(a, id, key, 'outrasenha');
    expect(otherPassword.statusCode).toBe(422);
    expect(otherPassword.json().error).toBe('idempotency_conflict');
    const otherFile = await upload(a, id, key, 'minhasenha', Buffer.concat([certFile(CNPJ_CERT), Buffer.from([0])]));
    expect(otherFile.statusCode).toBe(422);
    expect(otherFile.json().error).toBe('idempotency_conflict');
  });
});
