// KEY_PROVIDER=aws-kms against the KMS TEST DOUBLE (test/support/kms-double.ts): the real SDK's
// requests, signed with SigV4, answered by a server that checks the signatures by hand and does its
// cryptography in a SoftHSM2 token. Not AWS: no IAM policies, no rotation, no CloudTrail.
import { randomBytes } from 'node:crypto';
import { DescribeKeyCommand, GenerateDataKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import type { HttpRequest } from '@smithy/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AwsKmsKeyProvider, kmsKeyId } from '../src/infra/security/aws-kms-key-provider.js';
import { EnvelopeKeyProvider } from '../src/infra/security/envelope-key-provider.js';
import { KeyProviderUnavailableError, SecretDecryptionError } from '../src/infra/security/key-provider.js';
import { SecretBox } from '../src/infra/security/secret-box.js';
import { startKmsDouble, type KmsDouble } from './support/kms-double.js';

const context = { issuer: 'iss_123', secret: 'certificate_key' };
let kms: KmsDouble;
let keyId: string;
let provider: AwsKmsKeyProvider;

const providerFor = (overrides: Partial<ConstructorParameters<typeof AwsKmsKeyProvider>[0]> = {}) =>
  new AwsKmsKeyProvider({ keyId, region: kms.region, endpoint: kms.url, credentials: kms.credentials, ...overrides });

beforeAll(async () => {
  kms = await startKmsDouble();
  keyId = kms.createKey().keyId;
  provider = providerFor();
});
afterAll(async () => {
  await provider?.close();
  await kms?.close();
});

describe('AwsKmsKeyProvider (against the KMS test double)', () => {
  it('gets a data key from GenerateDataKey and opens it with Decrypt under the same encryption context', async () => {
    const before = { gen: kms.requests('GenerateDataKey'), dec: kms.requests('Decrypt') };
    const key = await provider.generateDataKey(context);
    expect(key.plaintext).toHaveLength(32);
    expect(key.wrapped.includes(key.plaintext)).toBe(false);
    const opened = await provider.unwrap(key.wrapped, { secret: 'certificate_key', issuer: 'iss_123' });
    expect(opened.equals(key.plaintext)).toBe(true);
    expect(kms.requests('GenerateDataKey')).toBe(before.gen + 1);
    expect(kms.requests('Decrypt')).toBe(before.dec + 1);
    expect(provider.mode).toBe('aws-kms');
    expect(provider.label).toBe(keyId);
    expect(provider.keyId).toBe(kmsKeyId(keyId));
    expect(provider.keyId).toMatch(/^kms_[0-9a-f]{16}$/);
    expect(await provider.healthCheck()).toBe(true);
  });

  it('refuses another encryption context, an altered blob and another key with SecretDecryptionError', async () => {
    const key = await provider.generateDataKey(context);
    await expect(provider.unwrap(key.wrapped, { issuer: 'iss_999', secret: 'certificate_key' })).rejects.toBeInstanceOf(SecretDecryptionError);
    await expect(provider.unwrap(key.wrapped, { issuer: 'iss_123' })).rejects.toBeInstanceOf(SecretDecryptionError);
    const altered = Buffer.from(key.wrapped);
    altered[altered.length - 3]! ^= 0x01;
    await expect(provider.unwrap(altered, context)).rejects.toBeInstanceOf(SecretDecryptionError);
    const other = providerFor({ keyId: kms.createKey().keyId });
    try {
      await expect(other.unwrap(key.wrapped, context)).rejects.toBeInstanceOf(SecretDecryptionError);
    } finally {
      await other.close();
    }
  });

  it('serves as the custody provider of a SecretBox, and accepts the key by ARN or alias', async () => {
    const alias = `fg-${randomBytes(4).toString('hex')}`;
    const { keyId: aliased, arn } = kms.createKey(alias);
    for (const id of [arn, `alias/${alias}`, aliased]) {
      const custody = providerFor({ keyId: id });
      try {
        const box = new SecretBox(new EnvelopeKeyProvider(randomBytes(32)), [], custody);
        const stored = await box.encrypt(Buffer.from('csc-123456'), 'issuer:iss_1:csc', box.custody);
        expect(SecretBox.modeOf(stored)).toBe('aws-kms');
        expect((await box.decrypt(stored, 'issuer:iss_1:csc')).toString()).toBe('csc-123456');
        await expect(box.decrypt(stored, 'issuer:iss_2:csc')).rejects.toBeInstanceOf(SecretDecryptionError);
      } finally {
        await custody.close();
      }
    }
  });

  it('is refused by the double with a wrong secret key or an unknown access key: KeyProviderUnavailableError naming the KMS error', async () => {
    const wrongSecret = providerFor({ credentials: { accessKeyId: kms.credentials.accessKeyId, secretAccessKey: randomBytes(30).toString('base64') } });
    const unknownKey = providerFor({ credentials: { accessKeyId: 'AKIAUNKNOWN000000000', secretAccessKey: kms.credentials.secretAccessKey } });
    try {
      const refused = await wrongSecret.generateDataKey(context).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(KeyProviderUnavailableError);
      expect((refused as Error).message).toMatch(/InvalidSignatureException/);
      expect((refused as Error).message).not.toContain(kms.credentials.secretAccessKey);
      const unknown = await unknownKey.generateDataKey(context).catch((e: unknown) => e);
      expect(unknown).toBeInstanceOf(KeyProviderUnavailableError);
      expect((unknown as Error).message).toMatch(/UnrecognizedClientException/);
      expect(await wrongSecret.healthCheck()).toBe(false);
    } finally {
      await wrongSecret.close();
      await unknownKey.close();
    }
  });

  it('reports a disabled key, an unknown key, throttling, a refused connection and a KMS that never answers as KeyProviderUnavailableError', async () => {
    const own = kms.createKey().keyId;
    const p = providerFor({ keyId: own });
    try {
      const key = await p.generateDataKey(context);
      kms.disableKey(own);
      await expect(p.generateDataKey(context)).rejects.toThrow(/DisabledException/);
      await expect(p.unwrap(key.wrapped, context)).rejects.toBeInstanceOf(KeyProviderUnavailableError);
      kms.enableKey(own);
      expect((await p.unwrap(key.wrapped, context)).equals(key.plaintext)).toBe(true);
      // Throttled on every attempt (2): the SDK's retry does not hide it.
      kms.failNext('GenerateDataKey', 'ThrottlingException');
      kms.failNext('GenerateDataKey', 'ThrottlingException');
      await expect(p.generateDataKey(context)).rejects.toThrow(/ThrottlingException/);
    } finally {
      await p.close();
    }
    const missing = providerFor({ keyId: '00000000-0000-0000-0000-000000000000' });
    await expect(missing.generateDataKey(context)).rejects.toThrow(/NotFoundException/);
    await missing.close();
    // Connection refused (port 9, discard, is not served here).
    const down = providerFor({ endpoint: 'http://127.0.0.1:9', maxAttempts: 1 });
    await expect(down.generateDataKey(context)).rejects.toBeInstanceOf(KeyProviderUnavailableError);
    await down.close();
    // A KMS that takes the request and never answers: the request timeout bounds the wait.
    const hold = kms.hold('GenerateDataKey');
    const slow = providerFor({ timeoutMs: 300, maxAttempts: 1 });
    try {
      await expect(slow.generateDataKey(context)).rejects.toBeInstanceOf(KeyProviderUnavailableError);
      await hold.arrived;
    } finally {
      hold.release();
      await slow.close();
    }
  });

  it('open() resolves the key id, alias or ARN to the ARN with DescribeKey: one keyId whatever the form', async () => {
    const alias = `fg-${randomBytes(4).toString('hex')}`;
    const { keyId: uuid, arn } = kms.createKey(alias);
    const opened = await Promise.all([uuid, arn, `alias/${alias}`].map((id) => AwsKmsKeyProvider.open({ keyId: id, region: kms.region, endpoint: kms.url, credentials: kms.credentials })));
    try {
      expect(new Set(opened.map((p) => p.keyId))).toEqual(new Set([kmsKeyId(arn)]));
      expect(opened.map((p) => p.label)).toEqual([arn, arn, arn]);
      const key = await opened[2]!.generateDataKey(context);
      expect((await opened[0]!.unwrap(key.wrapped, context)).equals(key.plaintext)).toBe(true);
    } finally {
      await Promise.all(opened.map((p) => p.close()));
    }
    const settings = { region: kms.region, endpoint: kms.url, credentials: kms.credentials };
    await expect(AwsKmsKeyProvider.open({ ...settings, keyId: 'alias/none' })).rejects.toThrow(/DescribeKey failed \(NotFoundException/);
    kms.disableKey(uuid);
    await expect(AwsKmsKeyProvider.open({ ...settings, keyId: uuid })).rejects.toThrow(/is Disabled/);
    kms.enableKey(uuid);
  });

  it('holds a request until released (for crash tests)', async () => {
    const hold = kms.hold('Decrypt');
    const key = await provider.generateDataKey(context);
    let done = false;
    const pending = provider.unwrap(key.wrapped, context).then((k) => ((done = true), k));
    await hold.arrived;
    expect(done).toBe(false);
    hold.release();
    expect((await pending).equals(key.plaintext)).toBe(true);
  });

  it("the double's own SigV4 check accepts the SDK's signed request as sent and refuses it altered", async () => {
    // Capture the request the SDK signed instead of sending it, then replay it by hand.
    let signed: HttpRequest | undefined;
    const capture = new KMSClient({
      region: kms.region,
      endpoint: kms.url,
      credentials: kms.credentials,
      maxAttempts: 1,
      requestHandler: {
        handle: async (request: HttpRequest) => {
          signed = request;
          throw new Error('captured');
        },
      },
    });
    await expect(capture.send(new GenerateDataKeyCommand({ KeyId: keyId, KeySpec: 'AES_256', EncryptionContext: context }))).rejects.toThrow('captured');
    capture.destroy();
    const request = signed!;
    const send = async (headers: Record<string, string>, body: string) => {
      const res = await fetch(kms.url, { method: 'POST', headers, body });
      return { status: res.status, json: (await res.json()) as { __type?: string; Plaintext?: string } };
    };
    const headers = Object.fromEntries(Object.entries(request.headers).filter(([k]) => !['host', 'content-length'].includes(k.toLowerCase())));
    const raw = request.body as string | Uint8Array;
    // The SDK's body is a Uint8Array subclass; read its bytes (Buffer.from(view) would call its valueOf).
    const body = typeof raw === 'string' ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8');
    expect(headers.authorization ?? headers.Authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=/);

    const asSent = await send(headers, body);
    expect(asSent.status).toBe(200);
    expect(asSent.json.Plaintext).toBeDefined();

    const otherContext = await send(headers, body.replace('iss_123', 'iss_124'));
    expect(otherContext).toMatchObject({ status: 400, json: { __type: 'InvalidSignatureException' } });
    const otherTarget = await send({ ...lowerKeys(headers), 'x-amz-target': 'TrentService.DescribeKey' }, body);
    expect(otherTarget).toMatchObject({ status: 400, json: { __type: 'InvalidSignatureException' } });
    const { authorization: _dropped, ...unsigned } = lowerKeys(headers);
    expect((await send(unsigned, body)).json.__type).toBe('MissingAuthenticationTokenException');
  });

  it('answers DescribeKey, signed by the SDK', async () => {
    const client = new KMSClient({ region: kms.region, endpoint: kms.url, credentials: kms.credentials, maxAttempts: 1 });
    try {
      const out = await client.send(new DescribeKeyCommand({ KeyId: keyId }));
      expect(out.KeyMetadata).toMatchObject({ KeyId: keyId, Enabled: true, KeyState: 'Enabled', KeyUsage: 'ENCRYPT_DECRYPT' });
    } finally {
      client.destroy();
    }
  });
});

function lowerKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}
