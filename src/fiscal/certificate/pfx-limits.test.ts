import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildPfx, ecKeyBag, extraCertBags } from '../../../test/support/hostile-pfx.js';
import { CertificateError, parsePfx } from './pfx.js';

const certs = resolve(import.meta.dirname, '../../../test/fixtures/certs');
const PASSWORD = 'senha-de-teste';

function refusal(pfx: Buffer, password = PASSWORD): CertificateError {
  try {
    parsePfx(pfx, password);
  } catch (err) {
    expect(err).toBeInstanceOf(CertificateError);
    return err as CertificateError;
  }
  throw new Error('the file was accepted');
}

// Before these checks forge ran each count first (10 million: 30 s of a frozen
// event loop; these tests then time out instead of answering).
// Key derivation at the allowed limits takes seconds on a loaded machine: 120 s is a last guard.
describe('parsePfx refuses key-derivation work no real certificate asks for', { timeout: 120_000 }, () => {
  it('a MAC with 10 million iterations, with the right password or a wrong one', () => {
    const pfx = buildPfx({ password: PASSWORD, macIterations: 10_000_000 });
    for (const password of [PASSWORD, 'wrong']) {
      const err = refusal(pfx, password);
      expect(err.reason).toBe('too_costly');
      expect(err.message).toBe(
        'The file asks for 10000000 key-derivation iterations (the integrity check (MAC)); certificates from ICP-Brasil use a few thousand; the limit is 100000.',
      );
    }
  });

  it('a private key encrypted with 10 million PBKDF2 (PBES2) or PKCS#12 PBE iterations', () => {
    for (const keyAlgorithm of ['aes256', '3des'] as const) {
      const err = refusal(buildPfx({ password: PASSWORD, keyIterations: 10_000_000, keyAlgorithm }));
      expect([err.reason, keyAlgorithm]).toEqual(['too_costly', keyAlgorithm]);
      expect(err.message).toMatch(/asks for 10000000 key-derivation iterations \(the encrypted private key\).*the limit is 100000/);
    }
  });

  it('certificates encrypted (legacy PKCS#12 PBE) with 10 million iterations', () => {
    const err = refusal(buildPfx({ password: PASSWORD, certIterations: 10_000_000 }));
    expect(err.reason).toBe('too_costly');
    expect(err.message).toMatch(/asks for 10000000 key-derivation iterations \(the encrypted certificates\)/);
  });

  it('a private key with 10 million iterations hidden inside encrypted certificates', () => {
    const pfx = buildPfx({ password: PASSWORD, certIterations: 2048, keyInsideEncrypted: true, keyIterations: 10_000_000 });
    expect(refusal(pfx).message).toMatch(/asks for 10000000 key-derivation iterations \(the encrypted private key\)/);
  });

  it('2^31 iterations, and an iteration count of absurd length', () => {
    expect(refusal(buildPfx({ password: PASSWORD, macIterations: 2 ** 31 })).message).toMatch(/asks for 2147483648 key-derivation/);
    const long = refusal(buildPfx({ password: PASSWORD, keyIterations: 2n ** 64n }));
    expect(long.reason).toBe('too_costly');
    expect(long.message).toMatch(/a 9-byte iteration count; .* the limit is 100000/);
  });

  it('more bags or encrypted parts than any certificate file', () => {
    expect(refusal(buildPfx({ password: PASSWORD, extraBags: extraCertBags(64) })).message).toMatch(/more than 64 items/);
  });

  it('still opens files at the limit, and the legacy RC2-40/3DES and modern AES files', () => {
    const atLimit = parsePfx(buildPfx({ password: PASSWORD, macIterations: 100_000, keyIterations: 100_000, keyAlgorithm: '3des' }), PASSWORD);
    expect(atLimit.cnpj).toBe('06157250000116');
    const legacyLayout = parsePfx(buildPfx({ password: PASSWORD, certIterations: 2048, keyInsideEncrypted: true, keyAlgorithm: '3des' }), PASSWORD);
    expect(legacyLayout.cnpj).toBe('06157250000116');
    expect(parsePfx(readFileSync(resolve(certs, 'test_certificate.pfx')), 'nfephp').commonName).toBe('SPED Projects in PHP');
    expect(parsePfx(readFileSync(resolve(certs, 'expired_certificate.pfx')), 'associacao').cnpj).toBe('99999090910270');
  });

  it('names a key that is not RSA instead of calling it missing', () => {
    const err = refusal(buildPfx({ password: PASSWORD, keyBag: ecKeyBag() }));
    expect(err.reason).toBe('unsupported_key');
    expect(err.message).toBe(
      "The certificate's key is EC, not RSA: SEFAZ verifies only RSA-SHA1 signatures, so upload an RSA A1 certificate (ICP-Brasil A1: RSA 2048 bits).",
    );
  });
});
