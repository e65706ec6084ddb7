// KEY_PROVIDER=pkcs11 against a SoftHSM2 token made by the global setup (test/support/softhsm.ts).
import { randomBytes, randomUUID } from 'node:crypto';
import * as graphene from 'graphene-pk11';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hsmInit } from '../src/cli/hsm-init.js';
import { loadConfig } from '../src/config.js';
import { EnvelopeKeyProvider } from '../src/infra/security/envelope-key-provider.js';
import { KeyProviderUnavailableError, SecretDecryptionError } from '../src/infra/security/key-provider.js';
import { initPkcs11MasterKey, Pkcs11KeyProvider } from '../src/infra/security/pkcs11-key-provider.js';
import { Pkcs11SetupError, Pkcs11Token } from '../src/infra/security/pkcs11-token.js';
import { SecretBox } from '../src/infra/security/secret-box.js';
import { softHsmSettings } from './support/softhsm.js';

// Each run of this file its own key label: the token lives for the whole test run.
const settings = softHsmSettings('gateway', `master-${randomUUID()}`);
const context = { issuer: 'iss_123', secret: 'certificate_key' };
let provider: Pkcs11KeyProvider;

beforeAll(() => {
  expect(initPkcs11MasterKey(settings).created).toBe(true);
  provider = Pkcs11KeyProvider.open(settings);
});
afterAll(async () => {
  await provider?.close();
});

describe('Pkcs11KeyProvider (SoftHSM2)', () => {
  it('wraps a fresh data key inside the token and opens it with the same context', async () => {
    const key = await provider.generateDataKey(context);
    expect(key.plaintext).toHaveLength(32);
    expect(key.wrapped).toHaveLength(1 + 12 + 32 + 16);
    expect(key.wrapped.includes(key.plaintext)).toBe(false);
    // Context keys in another order are the same context.
    const opened = await provider.unwrap(key.wrapped, { secret: 'certificate_key', issuer: 'iss_123' });
    expect(opened.equals(key.plaintext)).toBe(true);
    const other = await provider.generateDataKey(context);
    expect(other.plaintext.equals(key.plaintext)).toBe(false);
    expect(await provider.healthCheck()).toBe(true);
    expect(provider.mode).toBe('pkcs11');
    expect(provider.label).toBe(`fg-test/${settings.keyLabel}`);
    expect(provider.keyId).toMatch(/^p11_[0-9a-f]{16}$/);
  });

  it('refuses an altered wrapped key, another context and a truncated blob with SecretDecryptionError', async () => {
    const key = await provider.generateDataKey(context);
    for (const i of [0, 5, 20, key.wrapped.length - 1]) {
      const altered = Buffer.from(key.wrapped);
      altered[i]! ^= 0x01;
      await expect(provider.unwrap(altered, context)).rejects.toBeInstanceOf(SecretDecryptionError);
    }
    await expect(provider.unwrap(key.wrapped, { issuer: 'iss_999', secret: 'certificate_key' })).rejects.toBeInstanceOf(SecretDecryptionError);
    await expect(provider.unwrap(key.wrapped, { issuer: 'iss_123', secret: 'csc' })).rejects.toBeInstanceOf(SecretDecryptionError);
    await expect(provider.unwrap(key.wrapped.subarray(0, 30), context)).rejects.toBeInstanceOf(SecretDecryptionError);
    // The token is still fine after the failed tag checks.
    expect((await provider.unwrap(key.wrapped, context)).equals(key.plaintext)).toBe(true);
  });

  it('keeps the master key in the token: sensitive, not extractable, CKA_VALUE unreadable', () => {
    const token = Pkcs11Token.open(settings);
    try {
      const key = token.requireAesKey(settings.keyLabel);
      const attrs = key.getAttribute({ sensitive: null, extractable: null, token: null, encrypt: null, decrypt: null, valueLen: null });
      expect(attrs).toMatchObject({ sensitive: true, extractable: false, token: true, encrypt: true, decrypt: true, valueLen: 32 });
      expect(() => key.getAttribute({ value: null })).toThrow(/CKR_ATTRIBUTE_SENSITIVE/);
    } finally {
      token.close();
    }
  });

  it('serves as the custody provider of a SecretBox', async () => {
    const box = new SecretBox(new EnvelopeKeyProvider(randomBytes(32)), [], provider);
    const secret = Buffer.from('-----BEGIN PRIVATE KEY-----MIIE');
    const stored = await box.encrypt(secret, 'issuer:iss_1:certificate_key', box.custody);
    expect(SecretBox.modeOf(stored)).toBe('pkcs11');
    expect(SecretBox.keyIdOf(stored)).toBe(provider.keyId);
    expect((await box.decrypt(stored, 'issuer:iss_1:certificate_key')).equals(secret)).toBe(true);
    await expect(box.decrypt(stored, 'issuer:iss_2:certificate_key')).rejects.toBeInstanceOf(SecretDecryptionError);
  });

  it('names the same key with the same keyId from another instance, which opens its wrapped keys', async () => {
    const second = Pkcs11KeyProvider.open(settings);
    try {
      expect(second.keyId).toBe(provider.keyId);
      const key = await provider.generateDataKey(context);
      expect((await second.unwrap(key.wrapped, context)).equals(key.plaintext)).toBe(true);
    } finally {
      await second.close();
    }
    // Closing one instance neither logs out nor unloads what the other still uses.
    expect(await provider.healthCheck()).toBe(true);
  });

  it('reopens its session once when the token closed it (C_CloseAllSessions)', async () => {
    const module = graphene.Module.load(settings.library);
    module.initialize(); // already initialised in this process: graphene accepts it
    const slots = module.getSlots(true);
    for (let i = 0; i < slots.length; i++) if (slots.items(i).getToken().label.trim() === settings.tokenLabel) slots.items(i).closeAll();
    const key = await provider.generateDataKey(context);
    expect((await provider.unwrap(key.wrapped, context)).equals(key.plaintext)).toBe(true);
  });

  it('gives a clear error for a wrong PIN (without the PIN), an unknown token and a missing key', async () => {
    // The login state is per process and token (PKCS#11 v2.40 section 5.5): while a session is
    // logged in, C_Login answers CKR_USER_ALREADY_LOGGED_IN without looking at the PIN. So the PIN
    // is checked with no provider open.
    await provider.close();
    const wrongPin = 'not-the-pin-9876';
    let message = '';
    try {
      Pkcs11KeyProvider.open({ ...settings, pin: wrongPin });
    } catch (err) {
      expect(err).toBeInstanceOf(Pkcs11SetupError);
      message = (err as Error).message;
    }
    provider = Pkcs11KeyProvider.open(settings);
    expect(message).toMatch(/PKCS11_PIN.*CKR_PIN_INCORRECT/);
    expect(message).not.toContain(wrongPin);
    expect(() => Pkcs11KeyProvider.open({ ...settings, tokenLabel: 'no-such-token' })).toThrow(/No PKCS#11 token labelled "no-such-token" \(PKCS11_TOKEN_LABEL\)/);
    expect(() => Pkcs11KeyProvider.open({ ...settings, keyLabel: 'no-such-key' })).toThrow(/"no-such-key" \(PKCS11_KEY_LABEL\).*npm run hsm:init/);
    expect(() => Pkcs11KeyProvider.open({ ...settings, library: '/nonexistent/libpkcs11.so' })).toThrow(/PKCS11_LIBRARY/);
    // The failed opens left the working provider alone.
    expect(await provider.healthCheck()).toBe(true);
  });

  it('raises KeyProviderUnavailableError, not a decryption error, once closed', async () => {
    const other = Pkcs11KeyProvider.open(settings);
    const key = await other.generateDataKey(context);
    await other.close();
    await expect(other.unwrap(key.wrapped, context)).rejects.toBeInstanceOf(KeyProviderUnavailableError);
  });

  it('hsm-init creates the key once, then reports it exists (same key id)', () => {
    const keyLabel = `init-${randomUUID()}`;
    const config = loadConfig({
      KEY_PROVIDER: 'pkcs11',
      PKCS11_LIBRARY: settings.library,
      PKCS11_TOKEN_LABEL: settings.tokenLabel,
      PKCS11_PIN: settings.pin,
      PKCS11_KEY_LABEL: keyLabel,
    });
    const first: string[] = [];
    const second: string[] = [];
    hsmInit(config.keyStorage, (l) => first.push(l));
    hsmInit(config.keyStorage, (l) => second.push(l));
    expect(first[0]).toBe(`created master key fg-test/${keyLabel}`);
    expect(second[0]).toBe(`master key fg-test/${keyLabel} already exists (nothing changed)`);
    expect(first[1]).toMatch(/^key id: p11_[0-9a-f]{16}$/);
    expect(second[1]).toBe(first[1]);
    const token = Pkcs11Token.open(settings);
    try {
      expect(token.findAesKey(keyLabel)).toBeDefined();
    } finally {
      token.close();
    }
    const p = Pkcs11KeyProvider.open({ ...settings, keyLabel });
    expect(`key id: ${p.keyId}`).toBe(first[1]);
    return p.close();
  });
});
