import { readFileSync } from 'node:fs';
import { createPublicKey, sign, verify } from 'node:crypto';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildPfx } from '../../../test/support/hostile-pfx.js';
import { CertificateError, parsePfx } from './pfx.js';
import { openPfx, pfxOpenerState } from './pfx-worker-pool.js';

const certs = resolve(import.meta.dirname, '../../../test/fixtures/certs');
const load = (name: string) => readFileSync(resolve(certs, name));

async function reasonOf(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => new Error('the file was accepted'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CertificateError);
  return (err as CertificateError).reason;
}

// Key derivation at the allowed limits takes seconds on a loaded machine: 120 s is a last guard.
describe('openPfx (a worker thread with a time limit)', { timeout: 120_000 }, () => {
  it('gives what parsePfx gives, with a usable key, for modern and legacy files', async () => {
    for (const [file, password] of [
      ['novo_cert_cnpj_06157250000116_senha_minhasenha.pfx', 'minhasenha'],
      ['test_certificate.pfx', 'nfephp'],
    ] as const) {
      const inThread = await openPfx(load(file), password);
      const { privateKey: _a, ...expected } = parsePfx(load(file), password);
      const { privateKey, ...got } = inThread;
      expect(got).toEqual(expected);
      expect(Buffer.isBuffer(got.certificateDer)).toBe(true);
      const sig = sign('sha1', Buffer.from('abc'), privateKey);
      expect(verify('sha1', Buffer.from('abc'), createPublicKey(got.certificatePem), sig)).toBe(true);
    }
  });

  it("brings back parsePfx's refusals", async () => {
    expect(await reasonOf(openPfx(load('novo_test_certificate.pfx'), 'wrong'))).toBe('wrong_password');
    expect(await reasonOf(openPfx(Buffer.from('not a certificate'), 'x'))).toBe('not_pkcs12');
    expect(await reasonOf(openPfx(buildPfx({ password: 'p', macIterations: 10_000_000 }), 'p'))).toBe('too_costly');
  });

  it('stops a file that outlives the time limit, and keeps serving others', async () => {
    // Allowed counts, but about a second of key derivation: far beyond a 1 ms limit.
    const slow = buildPfx({ password: 'p', macIterations: 100_000, keyIterations: 100_000 });
    const err = await openPfx(slow, 'p', { timeLimitMs: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CertificateError);
    expect((err as CertificateError).reason).toBe('too_slow');
    expect((err as CertificateError).message).toMatch(/took longer than 0.001 s to open/);
    const opened = await Promise.all(Array.from({ length: 5 }, () => openPfx(load('novo_test_certificate.pfx'), 'nfephp')));
    expect(new Set(opened.map((c) => c.fingerprintSha256)).size).toBe(1);
    expect(pfxOpenerState().threads).toBeLessThanOrEqual(2);
    expect(pfxOpenerState().waiting).toBe(0);
  });
});
