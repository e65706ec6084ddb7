export type CertificateErrorReason = 'wrong_password' | 'not_pkcs12' | 'no_private_key' | 'no_certificate';

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
