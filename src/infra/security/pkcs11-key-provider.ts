// KEY_PROVIDER=pkcs11 (docs/decisions.md#key-storage): every data key is wrapped with AES-256-GCM by a
// non-extractable master key inside a PKCS#11 token; the gateway never sees the master key.
import { createHash, randomBytes } from 'node:crypto';
import { canonicalContext } from './encryption-context.js';
import {
  KeyProviderUnavailableError,
  roundTrip,
  SecretDecryptionError,
  type DataKey,
  type EncryptionContext,
  type KeyProvider,
} from './key-provider.js';
import { Pkcs11SetupError, Pkcs11Token, type Pkcs11TokenSettings } from './pkcs11-token.js';

export interface Pkcs11ProviderSettings extends Pkcs11TokenSettings {
  /** CKA_LABEL of the master key (PKCS11_KEY_LABEL). */
  keyLabel: string;
}

// wrapped = VERSION || iv (12) || ciphertext (32) || tag (16); the AAD is the canonical context.
const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** `p11_` + 16 hex of SHA-256(token serial || CKA_ID): names the key in blobs, stable, not secret. */
export function pkcs11KeyId(serial: string, ckaId: Buffer): string {
  return `p11_${createHash('sha256').update(Buffer.concat([Buffer.from(serial, 'utf8'), ckaId])).digest('hex').slice(0, 16)}`;
}

export class Pkcs11KeyProvider implements KeyProvider {
  readonly mode = 'pkcs11' as const;
  readonly keyId: string;
  readonly label: string;
  readonly #token: Pkcs11Token;
  readonly #keyLabel: string;

  private constructor(token: Pkcs11Token, keyLabel: string, keyId: string) {
    this.#token = token;
    this.#keyLabel = keyLabel;
    this.keyId = keyId;
    this.label = `${token.settings.tokenLabel}/${keyLabel}`;
  }

  /**
   * Opens the token and finds the master key. Throws Pkcs11SetupError naming the setting to fix
   * (PKCS11_LIBRARY, PKCS11_TOKEN_LABEL, PKCS11_PIN, PKCS11_KEY_LABEL); the PIN is never shown.
   */
  static open(settings: Pkcs11ProviderSettings): Pkcs11KeyProvider {
    const token = Pkcs11Token.open(settings);
    try {
      const ckaId = token.keyIdOf(settings.keyLabel);
      return new Pkcs11KeyProvider(token, settings.keyLabel, pkcs11KeyId(token.serial, ckaId));
    } catch (err) {
      token.close();
      throw err;
    }
  }

  async generateDataKey(context: EncryptionContext): Promise<DataKey> {
    const plaintext = randomBytes(32);
    const iv = randomBytes(IV_BYTES);
    try {
      const sealed = this.#guard(() => this.#token.encryptGcm(this.#keyLabel, iv, canonicalContext(context), plaintext));
      return { plaintext, wrapped: Buffer.concat([Buffer.from([VERSION]), iv, sealed]) };
    } catch (err) {
      plaintext.fill(0);
      throw err;
    }
  }

  async unwrap(wrapped: Buffer, context: EncryptionContext): Promise<Buffer> {
    if (wrapped.length !== 1 + IV_BYTES + 32 + TAG_BYTES || wrapped[0] !== VERSION) {
      throw new SecretDecryptionError('The wrapped data key is not a pkcs11 v1 wrapped key.');
    }
    const iv = wrapped.subarray(1, 1 + IV_BYTES);
    return this.#guard(() => this.#token.decryptGcm(this.#keyLabel, iv, canonicalContext(context), wrapped.subarray(1 + IV_BYTES)));
  }

  async healthCheck(): Promise<boolean> {
    return roundTrip(this).catch(() => false);
  }

  async close(): Promise<void> {
    this.#token.close();
  }

  /** A key that vanished from the token after start is an outage (retryable), not a bad blob. */
  #guard<T>(op: () => T): T {
    try {
      return op();
    } catch (err) {
      if (err instanceof Pkcs11SetupError) throw new KeyProviderUnavailableError(err.message);
      throw err;
    }
  }
}

export interface HsmInitResult {
  created: boolean;
  keyId: string;
  label: string;
}

/**
 * `hsm-init`: creates the master key (AES-256, non-extractable, in the token, random 16-byte
 * CKA_ID) unless a key with that label exists. Idempotent: a second run reports the existing key.
 */
export function initPkcs11MasterKey(settings: Pkcs11ProviderSettings): HsmInitResult {
  const token = Pkcs11Token.open(settings);
  try {
    const existing = token.findAesKey(settings.keyLabel);
    if (!existing) token.generateAesKey(settings.keyLabel, { id: randomBytes(16), persistent: true });
    return {
      created: !existing,
      keyId: pkcs11KeyId(token.serial, token.keyIdOf(settings.keyLabel)),
      label: `${settings.tokenLabel}/${settings.keyLabel}`,
    };
  } finally {
    token.close();
  }
}
