// The seam between secret encryption and where master keys live (DESIGN 2 "key storage"). Envelope
// mode keeps a local master key; aws-kms mode will call KMS Encrypt/Decrypt with the same contract.

export type KeyStorageMode = 'envelope' | 'aws-kms';

export interface KeyProvider {
  readonly mode: KeyStorageMode;
  /** Stable, non-secret name of the master key; recorded in every blob it wraps. */
  readonly keyId: string;
  /** Encrypts a data key under the master key. */
  wrap(dataKey: Buffer): Promise<Buffer>;
  /** Decrypts a data key wrapped by `wrap`; throws when it was wrapped by another key or altered. */
  unwrap(wrapped: Buffer): Promise<Buffer>;
  /**
   * A 32-byte key for one purpose (`info`), derived from the master key (HKDF-SHA256, RFC 5869):
   * the master key never leaves the provider and a derived key opens nothing else.
   */
  deriveKey(info: string): Promise<Buffer>;
  /** True when a wrap/unwrap round trip works right now. */
  healthCheck(): Promise<boolean>;
}

/** A wrapped data key or secret blob that cannot be opened: altered, wrong key or wrong binding. */
export class SecretDecryptionError extends Error {
  override readonly name = 'SecretDecryptionError';
}
