import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { roundTrip, SecretDecryptionError, type DataKey, type KeyProvider } from './key-provider.js';

const IV_BYTES = 12;
const TAG_BYTES = 16;
// Binds a wrapped key to its purpose, so a wrapped data key is never accepted as anything else. The
// encryption context is not added here (blobs written before it existed must keep opening): the
// secret blob's own AES-GCM AAD already binds the row and purpose.
const WRAP_AAD = Buffer.from('fiscal-gateway:data-key:v1');

/**
 * Envelope mode: data keys wrapped with AES-256-GCM under a 256-bit master key held in memory.
 * The key id is a hash prefix of the key, so blobs name their master key without revealing it.
 */
export class EnvelopeKeyProvider implements KeyProvider {
  readonly mode = 'envelope' as const;
  readonly keyId: string;
  readonly label = 'local master key (MASTER_KEY / MASTER_KEY_FILE / DATA_DIR)';
  readonly #masterKey: Buffer;

  constructor(masterKey: Buffer) {
    if (masterKey.length !== 32) throw new Error('The master key must be exactly 32 bytes (AES-256).');
    this.#masterKey = Buffer.from(masterKey);
    this.keyId = masterKeyId(masterKey);
  }

  async generateDataKey(): Promise<DataKey> {
    const plaintext = randomBytes(32);
    return { plaintext, wrapped: await this.wrap(plaintext) };
  }

  async wrap(dataKey: Buffer): Promise<Buffer> {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#masterKey, iv).setAAD(WRAP_AAD);
    const body = Buffer.concat([cipher.update(dataKey), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  }

  async unwrap(wrapped: Buffer): Promise<Buffer> {
    if (wrapped.length <= IV_BYTES + TAG_BYTES) throw new SecretDecryptionError('The wrapped data key is truncated.');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#masterKey, wrapped.subarray(0, IV_BYTES))
        .setAAD(WRAP_AAD)
        .setAuthTag(wrapped.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(wrapped.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
    } catch {
      throw new SecretDecryptionError('The data key cannot be unwrapped with this master key.');
    }
  }

  async deriveKey(info: string): Promise<Buffer> {
    // No salt: the master key is already uniformly random (RFC 5869 section 3.1); `info` separates purposes.
    return Buffer.from(hkdfSync('sha256', this.#masterKey, Buffer.alloc(0), `fiscal-gateway:${info}`, 32));
  }

  async healthCheck(): Promise<boolean> {
    return roundTrip(this).catch(() => false);
  }
}

/** `mk_` + 16 hex characters of SHA-256(key): enough to tell keys apart, useless to an attacker. */
export function masterKeyId(masterKey: Buffer): string {
  return `mk_${createHash('sha256').update(masterKey).digest('hex').slice(0, 16)}`;
}
