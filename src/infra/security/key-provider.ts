// The seam between secret encryption and where master keys live (docs/decisions.md#key-storage). Envelope
// mode keeps a local master key; pkcs11 mode wraps data keys inside a PKCS#11 token (an HSM); aws-kms
// mode asks KMS for data keys (GenerateDataKey) and to open them (Decrypt). The master key never
// leaves the token or KMS: the gateway only ever holds data keys, one per secret.

import type { KeyStorageMode } from '../../kernel/issuer.js';

// The modes are named in the kernel, where the issuer's certificate summary says which one keeps its key.
export type { KeyStorageMode };

export const KEY_STORAGE_MODES: readonly KeyStorageMode[] = ['envelope', 'pkcs11', 'aws-kms'];

/**
 * What a wrapped data key is bound to (KMS's EncryptionContext): the row and purpose of the secret,
 * e.g. `{issuer: 'iss_…', secret: 'certificate_key'}`. Opening it under another context fails.
 */
export type EncryptionContext = Readonly<Record<string, string>>;

export interface DataKey {
  /** 32 random bytes (AES-256); the caller zeroes it after use. */
  plaintext: Buffer;
  /** The same key wrapped by the master key: what is stored. */
  wrapped: Buffer;
}

export interface KeyProvider {
  readonly mode: KeyStorageMode;
  /** Stable, non-secret name of the master key; recorded in every blob it wraps. */
  readonly keyId: string;
  /** Human name of where the master key lives (token and key label, KMS key id), never secret. */
  readonly label: string;
  /** A fresh data key and its wrapped form, bound to `context`. */
  generateDataKey(context: EncryptionContext): Promise<DataKey>;
  /** Opens a data key wrapped by `generateDataKey`; throws SecretDecryptionError when altered, or wrapped by another key or context. */
  unwrap(wrapped: Buffer, context: EncryptionContext): Promise<Buffer>;
  /**
   * A 32-byte key for one purpose (`info`), derived from the master key (HKDF-SHA256, RFC 5869).
   * Only the envelope provider has one: HMAC keys for the process's own use (SSO state).
   */
  deriveKey?(info: string): Promise<Buffer>;
  /** True when a generate/unwrap round trip works right now. */
  healthCheck(): Promise<boolean>;
  /** Releases sessions and connections (process shutdown). */
  close?(): Promise<void>;
}

/** A wrapped data key or secret blob that cannot be opened: altered, wrong key or wrong binding. */
export class SecretDecryptionError extends Error {
  override readonly name = 'SecretDecryptionError';
}

/** The provider cannot be reached or refused to work (token logged out, KMS down): retryable, unlike SecretDecryptionError. */
export class KeyProviderUnavailableError extends Error {
  override readonly name: string = 'KeyProviderUnavailableError';
}

/** What a process must be given to open blobs wrapped under each mode (README "Key custody"). */
const WHAT_TO_CONFIGURE: Record<KeyStorageMode, string> = {
  envelope: 'the local master key that wrapped it: MASTER_KEY or MASTER_KEY_FILE as on the process that stored it',
  pkcs11: 'KEY_PROVIDER=pkcs11 with PKCS11_LIBRARY, PKCS11_TOKEN_LABEL, PKCS11_PIN and PKCS11_KEY_LABEL naming the same token and key',
  'aws-kms': 'KEY_PROVIDER=aws-kms with AWS_KMS_KEY_ID (the same key), AWS_REGION and AWS credentials allowed to use it',
};

/**
 * A secret wrapped by a master key this process has not loaded: typically an issuer's certificate moved
 * to an HSM or KMS by a process configured for it, read by one that is not. Not the
 * stored secret's fault, and fixed by configuration: the custody 503 (retryable), not a decryption
 * failure. The message names the provider and what to configure; never anything of the blob but its mode
 * and the key's public id.
 */
export class KeyCustodyMissingError extends KeyProviderUnavailableError {
  override readonly name: string = 'KeyCustodyMissingError';

  constructor(
    readonly mode: KeyStorageMode,
    readonly keyId: string,
    readonly running: KeyStorageMode,
  ) {
    super(
      `The secret is held by ${mode} (master key ${keyId}), which this process has not loaded (it runs KEY_PROVIDER=${running}). ` +
        `Configure ${WHAT_TO_CONFIGURE[mode]}, then restart it.`,
    );
  }
}

/** A round trip through `generateDataKey` and `unwrap`, for health checks. */
export async function roundTrip(provider: KeyProvider): Promise<boolean> {
  const context = { purpose: 'health-check' };
  const key = await provider.generateDataKey(context);
  try {
    const opened = await provider.unwrap(key.wrapped, context);
    const ok = opened.equals(key.plaintext);
    opened.fill(0);
    return ok;
  } finally {
    key.plaintext.fill(0);
  }
}
