import { readFileSync } from 'node:fs';
import { createPublicKey, sign, verify, X509Certificate } from 'node:crypto';
import { createSecureContext } from 'node:tls';
import { resolve } from 'node:path';
import forge from 'node-forge';
import { describe, expect, it } from 'vitest';
import { CertificateError, certificateValidityProblem, cnpjRootMatches, parsePfx, tlsCredentials } from './pfx.js';

const certs = resolve(import.meta.dirname, '../../../test/fixtures/certs');
const load = (name: string) => readFileSync(resolve(certs, name));
const TEST_FINGERPRINT =
  'B6:58:E2:33:E6:63:23:55:35:C1:72:34:C3:18:01:62:CA:6D:C1:AC:02:AB:16:BE:CE:9E:95:08:D3:A4:16:5A';

function reasonOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(CertificateError);
    return (err as CertificateError).reason;
  }
  return undefined;
}

describe('parsePfx', () => {
  it('loads the modern AES test certificate with a usable key pair', () => {
    const c = parsePfx(load('novo_test_certificate.pfx'), 'nfephp');
    expect(c.fingerprintSha256).toBe(TEST_FINGERPRINT);
    expect(c.commonName).toBe('SPED Projects in PHP');
    expect(c.subject).toContain('CN=SPED Projects in PHP');
    expect(c.certificateBase64).not.toMatch(/\s/);
    expect(new X509Certificate(Buffer.from(c.certificateBase64, 'base64')).fingerprint256).toBe(TEST_FINGERPRINT);
    expect(c.notAfter.toISOString()).toBe('2028-08-06T02:41:55.000Z');
    const sig = sign('sha1', Buffer.from('abc'), c.privateKey);
    expect(verify('sha1', Buffer.from('abc'), createPublicKey(c.certificatePem), sig)).toBe(true);
  });

  it('loads legacy RC2-40/3DES files that OpenSSL 3 refuses, giving the same certificate', () => {
    expect(() => createSecureContext({ pfx: load('test_certificate.pfx'), passphrase: 'nfephp' })).toThrow();
    expect(parsePfx(load('test_certificate.pfx'), 'nfephp').fingerprintSha256).toBe(TEST_FINGERPRINT);
    const expired = parsePfx(load('expired_certificate.pfx'), 'associacao');
    expect(expired.cnpj).toBe('99999090910270'); // from the CN "NAME:CNPJ"
    expect(certificateValidityProblem(expired, new Date('2026-01-01T00:00:00Z'))).toBe('expired');
  });

  it('reads the ICP-Brasil CNPJ (2.16.76.1.3.3) and e-CPF (2.16.76.1.3.1, after the birth date) fields', () => {
    const cnpj = parsePfx(load('novo_cert_cnpj_06157250000116_senha_minhasenha.pfx'), 'minhasenha');
    expect([cnpj.cnpj, cnpj.cpf]).toEqual(['06157250000116', null]);
    const cpf = parsePfx(load('novo_cert_cpf_90483926086_minhasenha.pfx'), 'minhasenha');
    expect([cpf.cnpj, cpf.cpf]).toEqual([null, '90483926086']);
  });

  it('tells a wrong password apart from a file that is not PKCS#12', () => {
    expect(reasonOf(() => parsePfx(load('novo_test_certificate.pfx'), 'wrong'))).toBe('wrong_password');
    expect(reasonOf(() => parsePfx(load('test_certificate.pfx'), ''))).toBe('wrong_password');
    expect(reasonOf(() => parsePfx(load('novo_test_certificate.cert.pem'), 'nfephp'))).toBe('not_pkcs12');
    expect(reasonOf(() => parsePfx(load('novo_test_certificate.pfx').subarray(0, 900), 'nfephp'))).toBe('not_pkcs12');
    expect(reasonOf(() => parsePfx(Buffer.alloc(0), 'nfephp'))).toBe('not_pkcs12');
  });

  it('rejects a PKCS#12 that holds only a certificate, or a key without its certificate', () => {
    const c = parsePfx(load('novo_test_certificate.pfx'), 'nfephp');
    const cert = forge.pki.certificateFromPem(c.certificatePem);
    const key = forge.pki.privateKeyFromPem(c.privateKeyPem);
    const other = parsePfx(load('novo_cert_cnpj_06157250000116_senha_minhasenha.pfx'), 'minhasenha');
    const toBuf = (asn: forge.asn1.Asn1) => Buffer.from(forge.asn1.toDer(asn).getBytes(), 'binary');
    const certOnly = toBuf(forge.pkcs12.toPkcs12Asn1(null, cert, 'pw', { algorithm: '3des' }));
    expect(reasonOf(() => parsePfx(certOnly, 'pw'))).toBe('no_private_key');
    const mismatched = forge.pkcs12.toPkcs12Asn1(key, forge.pki.certificateFromPem(other.certificatePem), 'pw', {
      algorithm: '3des',
    });
    expect(reasonOf(() => parsePfx(toBuf(mismatched), 'pw'))).toBe('no_certificate');
  });

  it('gives PEM credentials that Node TLS accepts for mutual TLS', () => {
    const creds = tlsCredentials(parsePfx(load('novo_test_certificate.pfx'), 'nfephp'));
    expect(creds.key).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(() => createSecureContext(creds)).not.toThrow();
  });
});

describe('certificate checks', () => {
  const validity = { notBefore: new Date('2024-01-01T00:00:00Z'), notAfter: new Date('2025-01-01T00:00:00Z') };
  it('classifies validity', () => {
    expect(certificateValidityProblem(validity, new Date('2023-12-31T23:59:59Z'))).toBe('not_yet_valid');
    expect(certificateValidityProblem(validity, new Date('2024-06-01T00:00:00Z'))).toBeNull();
    expect(certificateValidityProblem(validity, new Date('2025-01-01T00:00:01Z'))).toBe('expired');
  });
  it('compares CNPJ roots (first 8 positions), alphanumeric aware', () => {
    expect(cnpjRootMatches('06157250000116', '06.157.250/0002-05')).toBe(true);
    expect(cnpjRootMatches('06157250000116', '06157251000100')).toBe(false);
    expect(cnpjRootMatches('PC3D315K000193', 'pc3d315k000274')).toBe(true);
    expect(cnpjRootMatches('PC3D315K000193', 'PC3D315J000193')).toBe(false);
    expect(cnpjRootMatches(null, '06157250000116')).toBe(false);
    expect(cnpjRootMatches('0615725', '0615725')).toBe(false);
  });
});
