// Envelope encryption of secrets at rest (docs/guides/api.md#contract-sandbox-and-secrets, docs/decisions.md#key-storage): every secret gets a
// fresh AES-256-GCM data key; only the data key's wrapped form (by the master key, in the token or in
// KMS) is stored beside it.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { CachedKeyProvider } from './cached-key-provider.js';
import { KEY_STORAGE_MODES, KeyCustodyMissingError, SecretDecryptionError, type EncryptionContext, type KeyProvider, type KeyStorageMode } from './key-provider.js';

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
 * ciphertext copied into another row or another column no longer decrypts; it is also the wrapped
 * data key's encryption context (KMS, the token), so the key alone opens nothing elsewhere either.
 *
 * Two providers write: `provider` (the local master key) for the gateway's own secrets (webhook
 * signing secrets, TOTP, mail bodies), and `custody` (KEY_PROVIDER: envelope, pkcs11 or aws-kms)
 * for what the issue calls the certificate: the A1 private key, the certificate and the CSC.
 */
export class SecretBox {
  readonly #current: KeyProvider;
  readonly #custody: KeyProvider;
  readonly #byKeyId = new Map<string, KeyProvider>();

  readonly #lookup: (keyId: string) => KeyProvider | undefined;

  /**
   * `previous` keeps retired master keys usable for reading until their blobs are re-encrypted;
   * `lookup` finds any other provider this process has loaded (secret-box-registry.ts).
   */
  constructor(
    current: KeyProvider,
    previous: readonly KeyProvider[] = [],
    custody: KeyProvider = current,
    lookup: (keyId: string) => KeyProvider | undefined = () => undefined,
  ) {
    this.#current = current;
    this.#custody = custody;
    this.#lookup = lookup;
    for (const p of [...previous, current, custody]) this.#byKeyId.set(p.keyId, p);
  }

  get provider(): KeyProvider {
    return this.#current;
  }

  /** Where certificate keys, certificates and CSCs are wrapped (KEY_PROVIDER). */
  get custody(): KeyProvider {
    return this.#custody;
  }

  /**
   * How long a process may keep what it opened with the custody provider (decrypted signing keys
   * included): KEY_CACHE_SECONDS for an HSM or KMS, so a key disabled there stops signing within
   * that bound; unbounded under the local master key, which cannot be revoked from outside.
   */
  get openedMaxAgeMs(): number {
    return this.#custody instanceof CachedKeyProvider ? this.#custody.ttlMs : this.#custody.mode === 'envelope' ? Infinity : 0;
  }

  /** A key for one purpose derived from the current master key (HMAC keys that need no storage). */
  deriveKey(info: string): Promise<Buffer> {
    if (!this.#current.deriveKey) throw new Error(`The ${this.#current.mode} key provider derives no keys.`);
    return this.#current.deriveKey(info);
  }

  /** Encrypts under `provider` (the local master key unless told otherwise, e.g. `box.custody`). */
  async encrypt(plaintext: Buffer, aad: string, provider: KeyProvider = this.#current): Promise<string> {
    if (this.#byKeyId.get(provider.keyId) !== provider) throw new Error(`Key provider ${provider.keyId} is not loaded in this SecretBox.`);
    const dataKey = await provider.generateDataKey(contextOf(aad));
    try {
      const iv = randomBytes(IV_BYTES);
      const kid = provider.keyId;
      const cipher = createCipheriv('aes-256-gcm', dataKey.plaintext, iv).setAAD(boundAad(kid, aad));
      const ct = Buffer.concat([cipher.update(plaintext), cipher.final()]);
      const blob: SecretBlobV1 = {
        v: VERSION,
        mode: provider.mode,
        kid,
        dk: dataKey.wrapped.toString('base64'),
        iv: iv.toString('base64'),
        tag: cipher.getAuthTag().toString('base64'),
        ct: ct.toString('base64'),
      };
      return JSON.stringify(blob);
    } finally {
      dataKey.plaintext.fill(0);
    }
  }

  async decrypt(stored: string, aad: string): Promise<Buffer> {
    const blob = parseBlob(stored);
    const provider = this.#byKeyId.get(blob.kid) ?? this.#lookup(blob.kid);
    // Wrapped where this process cannot reach (another KEY_PROVIDER, another master key): a configuration
    // to fix, answered 503 with what to configure, not a damaged secret.
    if (!provider) {
      const mode = KEY_STORAGE_MODES.includes(blob.mode) ? blob.mode : 'envelope';
      throw new KeyCustodyMissingError(mode, blob.kid, this.#custody.mode);
    }
    const dataKey = await provider.unwrap(Buffer.from(blob.dk, 'base64'), contextOf(aad));
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

  /** Storage mode recorded in a blob, without decrypting it. */
  static modeOf(stored: string): KeyStorageMode {
    return parseBlob(stored).mode;
  }

  /** Releases the providers' sessions and connections. */
  async close(): Promise<void> {
    await Promise.all([...new Set(this.#byKeyId.values())].map((p) => p.close?.()));
  }
}

/**
 * The encryption context for a secret's aad: `issuer:<id>:<secret>` names the issuer and the secret
 * (what KMS logs in CloudTrail and a key policy can test); anything else is its own purpose.
 */
export function contextOf(aad: string): EncryptionContext {
  const m = /^issuer:([^:]+):(.+)$/.exec(aad);
  return m ? { issuer: m[1]!, secret: m[2]! } : { purpose: aad };
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
