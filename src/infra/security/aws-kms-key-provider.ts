// KEY_PROVIDER=aws-kms (docs/decisions.md#key-storage): KMS makes each data key (GenerateDataKey, AES_256)
// and opens it (Decrypt), both bound to an encryption context naming the issuer and the secret, so
// CloudTrail records which secret was opened and a key policy can test it. The master key never
// leaves KMS. Credentials come from the SDK's default chain (environment, profile, IAM role).
import { createHash } from 'node:crypto';
import { DecryptCommand, DescribeKeyCommand, GenerateDataKeyCommand, KMSClient, type KMSClientConfig } from '@aws-sdk/client-kms';
import {
  KeyProviderUnavailableError,
  roundTrip,
  SecretDecryptionError,
  type DataKey,
  type EncryptionContext,
  type KeyProvider,
} from './key-provider.js';

export interface AwsKmsProviderSettings {
  /** AWS_KMS_KEY_ID: key id, key ARN, alias name or alias ARN. */
  keyId: string;
  /** AWS_REGION. */
  region: string;
  /** AWS_KMS_ENDPOINT: another endpoint (a VPC endpoint, a FIPS endpoint, a test double); default AWS's. */
  endpoint?: string | undefined;
  /** Explicit credentials (tests); default: the SDK's chain (AWS_ACCESS_KEY_ID…, profile, IAM role). */
  credentials?: KMSClientConfig['credentials'];
  /** Bound of one attempt, connecting and answering (default 5 s). */
  timeoutMs?: number;
  /** Attempts per call, the SDK's retries with backoff included (default 2). */
  maxAttempts?: number;
}

// What KMS answers for a ciphertext it will not open: altered, another context, another key.
const NOT_OPENABLE = new Set(['InvalidCiphertextException', 'IncorrectKeyException']);

/** `kms_` + 16 hex of SHA-256(the key id or ARN sent to KMS): names the key in blobs, not secret. */
export function kmsKeyId(keyId: string): string {
  return `kms_${createHash('sha256').update(keyId, 'utf8').digest('hex').slice(0, 16)}`;
}

export class AwsKmsKeyProvider implements KeyProvider {
  readonly mode = 'aws-kms' as const;
  readonly keyId: string;
  readonly label: string;
  readonly #client: KMSClient;
  readonly #kmsKeyId: string;

  /**
   * Resolves AWS_KMS_KEY_ID (key id, alias or ARN) to the key's ARN with DescribeKey and checks the
   * key can encrypt and is enabled, so the provider's keyId is the same whichever form was
   * configured, and an alias later pointed at another key does not silently change which key opens
   * the stored blobs. KeyProviderUnavailableError when KMS refuses or cannot be reached.
   */
  static async open(settings: AwsKmsProviderSettings): Promise<AwsKmsKeyProvider> {
    const probe = new AwsKmsKeyProvider(settings);
    try {
      const out = await probe.#call('DescribeKey', () => probe.#client.send(new DescribeKeyCommand({ KeyId: settings.keyId })));
      const meta = out.KeyMetadata;
      if (!meta?.Arn) throw new KeyProviderUnavailableError('AWS KMS DescribeKey answered without the key ARN.');
      if (meta.KeyUsage !== 'ENCRYPT_DECRYPT' || (meta.KeySpec && meta.KeySpec !== 'SYMMETRIC_DEFAULT')) {
        throw new KeyProviderUnavailableError(`AWS_KMS_KEY_ID must name a symmetric ENCRYPT_DECRYPT key; ${meta.Arn} is ${meta.KeySpec ?? '?'} ${meta.KeyUsage ?? '?'}.`);
      }
      if (meta.Enabled === false) throw new KeyProviderUnavailableError(`AWS KMS key ${meta.Arn} is ${meta.KeyState ?? 'disabled'}.`);
      return new AwsKmsKeyProvider({ ...settings, keyId: meta.Arn });
    } finally {
      probe.#client.destroy();
    }
  }

  /** Uses `settings.keyId` as given (prefer the ARN; `open` resolves any form to it). */
  constructor(settings: AwsKmsProviderSettings) {
    this.#kmsKeyId = settings.keyId;
    this.keyId = kmsKeyId(settings.keyId);
    this.label = settings.keyId;
    const timeout = settings.timeoutMs ?? 5_000;
    this.#client = new KMSClient({
      region: settings.region,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      ...(settings.credentials ? { credentials: settings.credentials } : {}),
      maxAttempts: settings.maxAttempts ?? 2,
      // Bounded: a KMS that does not answer is an outage to report, not a request to wait on
      // (without throwOnRequestTimeout the SDK only logs a warning and keeps waiting).
      requestHandler: { connectionTimeout: timeout, requestTimeout: timeout, throwOnRequestTimeout: true },
    });
  }

  async generateDataKey(context: EncryptionContext): Promise<DataKey> {
    const out = await this.#call('GenerateDataKey', () =>
      this.#client.send(new GenerateDataKeyCommand({ KeyId: this.#kmsKeyId, KeySpec: 'AES_256', EncryptionContext: { ...context } })),
    );
    if (!out.Plaintext || !out.CiphertextBlob || out.Plaintext.length !== 32) {
      throw new KeyProviderUnavailableError('AWS KMS GenerateDataKey answered without a 32-byte data key.');
    }
    return { plaintext: Buffer.from(out.Plaintext), wrapped: Buffer.from(out.CiphertextBlob) };
  }

  async unwrap(wrapped: Buffer, context: EncryptionContext): Promise<Buffer> {
    if (wrapped.length === 0) throw new SecretDecryptionError('The wrapped data key is empty.');
    const out = await this.#call('Decrypt', () =>
      this.#client.send(new DecryptCommand({ CiphertextBlob: wrapped, KeyId: this.#kmsKeyId, EncryptionContext: { ...context } })),
    );
    if (!out.Plaintext || out.Plaintext.length !== 32) throw new SecretDecryptionError('AWS KMS opened the blob, but it is not a 32-byte data key.');
    return Buffer.from(out.Plaintext);
  }

  async healthCheck(): Promise<boolean> {
    return roundTrip(this).catch(() => false);
  }

  async close(): Promise<void> {
    this.#client.destroy();
  }

  /**
   * A ciphertext KMS will not open is SecretDecryptionError; anything else (network, timeout,
   * throttling, disabled key, access denied, bad credentials) is KeyProviderUnavailableError naming
   * the KMS error type and HTTP status only: KMS messages can quote request details.
   */
  async #call<T>(operation: string, send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (err) {
      const e = err as { name?: string; code?: string; $metadata?: { httpStatusCode?: number } };
      const name = e.name ?? 'Error';
      if (NOT_OPENABLE.has(name)) throw new SecretDecryptionError(`AWS KMS ${operation}: ${name}.`);
      const status = e.$metadata?.httpStatusCode;
      const detail = [name, e.code && e.code !== name ? e.code : undefined, status ? `HTTP ${status}` : undefined].filter(Boolean).join(', ');
      throw new KeyProviderUnavailableError(`AWS KMS ${operation} failed (${detail}).`);
    }
  }
}
