export type CertificateErrorReason =
  | 'wrong_password'
  | 'not_pkcs12'
  | 'no_private_key'
  | 'no_certificate'
  /** The file asks for more key-derivation work than any real A1 file (hostile iteration counts). */
  | 'too_costly'
  /** Opening the file took longer than the worker's time limit. */
  | 'too_slow'
  /** The key is not RSA (SEFAZ verifies RSA-SHA1 only) or its size is outside 2048..4096 bits. */
  | 'unsupported_key';

/** A certificate file the uploader must fix; `message` is safe to show (it never echoes the password). */
export class CertificateError extends Error {
  override readonly name = 'CertificateError';
  constructor(
    readonly reason: CertificateErrorReason,
    message: string,
  ) {
    super(message);
  }
}
