// Envelope encryption of secrets at rest (SPEC 1 step 2, DESIGN 2 "key storage"): every secret gets a
// fresh AES-256-GCM data key; only the data key's wrapped form (by the master key) is stored beside it.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { SecretDecryptionError, type KeyProvider, type KeyStorageMode } from './key-provider.js';

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** What is stored for one secret: JSON text, self-describing so keys can rotate and modes can change. */
interface SecretBlobV1 {
  v: 1;
  mode: KeyStorageMode;
  /** Master key that wrapped `dk`. */
  kid: string;
  /** Wrapped data key, base64. */
  dk: string;
  iv: string;
  tag: string;
  ct: string;
}

/**
 * Encrypts and decrypts secrets. `aad` names the row and purpose (`issuer:<id>:certificate_key`), so a
 * ciphertext copied into another row or another column no longer decrypts.
 */
export class SecretBox {
  readonly #current: KeyProvider;
  readonly #byKeyId = new Map<string, KeyProvider>();

  /** `previous` keeps retired master keys usable for reading until their blobs are re-encrypted. */
  constructor(current: KeyProvider, previous: readonly KeyProvider[] = []) {
    this.#current = current;
    for (const p of [...previous, current]) this.#byKeyId.set(p.keyId, p);
  }

  get provider(): KeyProvider {
    return this.#current;
  }

  /** A key for one purpose derived from the current master key (HMAC keys that need no storage). */
  deriveKey(info: string): Promise<Buffer> {
    return this.#current.deriveKey(info);
  }

  async encrypt(plaintext: Buffer, aad: string): Promise<string> {
    const dataKey = randomBytes(32);
    try {
      const iv = randomBytes(IV_BYTES);
      const kid = this.#current.keyId;
      const cipher = createCipheriv('aes-256-gcm', dataKey, iv).setAAD(boundAad(kid, aad));
      const ct = Buffer.concat([cipher.update(plaintext), cipher.final()]);
      const blob: SecretBlobV1 = {
        v: VERSION,
        mode: this.#current.mode,
        kid,
        dk: (await this.#current.wrap(dataKey)).toString('base64'),
        iv: iv.toString('base64'),
        tag: cipher.getAuthTag().toString('base64'),
        ct: ct.toString('base64'),
      };
      return JSON.stringify(blob);
    } finally {
      dataKey.fill(0);
    }
  }

  async decrypt(stored: string, aad: string): Promise<Buffer> {
    const blob = parseBlob(stored);
    const provider = this.#byKeyId.get(blob.kid);
    if (!provider) throw new SecretDecryptionError(`The secret was encrypted with master key ${blob.kid}, which is not loaded.`);
    const dataKey = await provider.unwrap(Buffer.from(blob.dk, 'base64'));
    try {
      const decipher = createDecipheriv('aes-256-gcm', dataKey, Buffer.from(blob.iv, 'base64'))
        .setAAD(boundAad(blob.kid, aad))
        .setAuthTag(Buffer.from(blob.tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(blob.ct, 'base64')), decipher.final()]);
    } catch {
      throw new SecretDecryptionError('The secret was altered or does not belong here.');
    } finally {
      dataKey.fill(0);
    }
  }

  /** Master key id recorded in a blob, without decrypting it (re-encryption, KMS migration). */
  static keyIdOf(stored: string): string {
    return parseBlob(stored).kid;
  }
}

function boundAad(kid: string, aad: string): Buffer {
  return Buffer.from(`fgs:v${VERSION}|${kid}|${aad}`, 'utf8');
}

function parseBlob(stored: string): SecretBlobV1 {
  let blob: Partial<SecretBlobV1>;
  try {
    blob = JSON.parse(stored) as Partial<SecretBlobV1>;
  } catch {
    throw new SecretDecryptionError('The stored secret is not a secret blob.');
  }
  const fields = [blob.kid, blob.dk, blob.iv, blob.tag, blob.ct];
  if (blob.v !== VERSION || fields.some((f) => typeof f !== 'string')) {
    throw new SecretDecryptionError(`Unsupported secret blob version ${String(blob.v)}.`);
  }
  if (Buffer.from(blob.tag as string, 'base64').length !== TAG_BYTES) {
    throw new SecretDecryptionError('The stored secret has a malformed authentication tag.');
  }
  return blob as SecretBlobV1;
}
