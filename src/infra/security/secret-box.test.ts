import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EnvelopeKeyProvider } from './envelope-key-provider.js';
import { SecretDecryptionError, type KeyProvider } from './key-provider.js';
import { keyStorageStatus } from './key-storage-status.js';
import { SecretBox } from './secret-box.js';

const box = () => new SecretBox(new EnvelopeKeyProvider(randomBytes(32)));

describe('SecretBox (envelope encryption)', () => {
  it('round-trips any plaintext', async () => {
    const b = box();
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 4096 }), fc.string(), async (bytes, aad) => {
        const plain = Buffer.from(bytes);
        expect((await b.decrypt(await b.encrypt(plain, aad), aad)).equals(plain)).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  it('stores neither the plaintext nor the data key in clear, and uses a fresh data key each time', async () => {
    const b = box();
    const secret = Buffer.from('-----BEGIN PRIVATE KEY-----MIIEvQIBADANBgkqhkiG9w0BAQEFAASC');
    const one = await b.encrypt(secret, 'issuer:iss_1:certificate_key');
    const two = await b.encrypt(secret, 'issuer:iss_1:certificate_key');
    expect(one).not.toContain('PRIVATE KEY');
    expect(one).not.toContain(secret.toString('base64').slice(0, 20));
    const [p1, p2] = [JSON.parse(one), JSON.parse(two)];
    expect(p1).toMatchObject({ v: 1, mode: 'envelope', kid: b.provider.keyId });
    expect(p1.dk).not.toBe(p2.dk);
    expect(p1.ct).not.toBe(p2.ct);
  });

  it('refuses a tampered ciphertext, tag, iv or wrapped key', async () => {
    const b = box();
    const stored = await b.encrypt(Buffer.from('csc-0123456789abcdef'), 'issuer:iss_1:csc');
    for (const field of ['ct', 'tag', 'iv', 'dk'] as const) {
      const blob = JSON.parse(stored);
      const bytes = Buffer.from(blob[field], 'base64');
      bytes[0] = bytes[0]! ^ 0x01;
      blob[field] = bytes.toString('base64');
      await expect(b.decrypt(JSON.stringify(blob), 'issuer:iss_1:csc'), field).rejects.toBeInstanceOf(SecretDecryptionError);
    }
    await expect(b.decrypt('not json', 'issuer:iss_1:csc')).rejects.toBeInstanceOf(SecretDecryptionError);
  });

  it('refuses a blob moved to another row (wrong AAD)', async () => {
    const b = box();
    const stored = await b.encrypt(Buffer.from('secret'), 'issuer:iss_A:certificate_key');
    await expect(b.decrypt(stored, 'issuer:iss_B:certificate_key')).rejects.toBeInstanceOf(SecretDecryptionError);
    await expect(b.decrypt(stored, 'issuer:iss_A:csc')).rejects.toBeInstanceOf(SecretDecryptionError);
  });

  it('refuses to decrypt with another master key, even one pretending to have the same id', async () => {
    const stored = await box().encrypt(Buffer.from('secret'), 'a');
    await expect(box().decrypt(stored, 'a')).rejects.toThrow(/not loaded/);
    const impostor = new EnvelopeKeyProvider(randomBytes(32));
    Object.defineProperty(impostor, 'keyId', { value: JSON.parse(stored).kid });
    await expect(new SecretBox(impostor).decrypt(stored, 'a')).rejects.toBeInstanceOf(SecretDecryptionError);
  });

  it('reads blobs of a retired master key passed as previous', async () => {
    const oldKey = new EnvelopeKeyProvider(randomBytes(32));
    const stored = await new SecretBox(oldKey).encrypt(Buffer.from('secret'), 'a');
    const rotated = new SecretBox(new EnvelopeKeyProvider(randomBytes(32)), [oldKey]);
    expect((await rotated.decrypt(stored, 'a')).toString()).toBe('secret');
    expect(SecretBox.keyIdOf(await rotated.encrypt(Buffer.from('x'), 'a'))).toBe(rotated.provider.keyId);
  });
});

describe('EnvelopeKeyProvider', () => {
  it('is healthy, names its key without revealing it, and rejects short keys', async () => {
    const key = randomBytes(32);
    const p = new EnvelopeKeyProvider(key);
    expect(await p.healthCheck()).toBe(true);
    expect(p.keyId).toMatch(/^mk_[0-9a-f]{16}$/);
    expect(p.keyId).toBe(new EnvelopeKeyProvider(key).keyId);
    expect(key.toString('hex')).not.toContain(p.keyId.slice(3));
    expect(() => new EnvelopeKeyProvider(randomBytes(16))).toThrow(/32 bytes/);
  });

  it('derives one stable key per purpose, different per purpose and per master key', async () => {
    const key = randomBytes(32);
    const p = new EnvelopeKeyProvider(key);
    const a = await p.deriveKey('sso-state');
    expect(a).toHaveLength(32);
    expect(a.equals(await new EnvelopeKeyProvider(key).deriveKey('sso-state'))).toBe(true);
    expect(a.equals(await p.deriveKey('sso-cookie'))).toBe(false);
    expect(a.equals(await new EnvelopeKeyProvider(randomBytes(32)).deriveKey('sso-state'))).toBe(false);
    expect(a.equals(key)).toBe(false);
  });
});

describe('keyStorageStatus', () => {
  it('reports mode, key, a live probe and the counts; a broken provider is unhealthy instead of throwing', async () => {
    const good = new EnvelopeKeyProvider(randomBytes(32));
    const at = new Date('2026-11-21T13:05:09.123Z');
    const status = await keyStorageStatus(good, good, [{ kind: 'certificate', mode: 'envelope', count: 2 }, { kind: 'csc', mode: 'pkcs11', count: 1 }], () => at);
    expect(status).toMatchObject({
      mode: 'envelope',
      master_key_id: good.keyId,
      provider: { mode: 'envelope', key_id: good.keyId, cache_seconds: 0 },
      healthy: true,
      probe: { error: null },
      secrets: { envelope: { certificates: 2, cscs: 0 }, pkcs11: { certificates: 0, cscs: 1 }, 'aws-kms': { certificates: 0, cscs: 0 } },
      checked_at: '2026-11-21T13:05:09.123Z',
    });
    expect(status.probe.wrap_ms).toBeGreaterThanOrEqual(0);
    expect(status.probe.unwrap_ms).toBeGreaterThanOrEqual(0);
    const broken: KeyProvider = {
      mode: 'aws-kms', keyId: 'k', label: 'broken',
      generateDataKey: () => Promise.reject(new Error('KMS unreachable')),
      unwrap: good.unwrap.bind(good),
      healthCheck: () => Promise.resolve(false),
    };
    const down = await keyStorageStatus(broken, good, []);
    expect(down).toMatchObject({ healthy: false, probe: { wrap_ms: null, unwrap_ms: null, error: 'Error: KMS unreachable' } });
  });
});
