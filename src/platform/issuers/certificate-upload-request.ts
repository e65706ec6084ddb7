import { createHash } from 'node:crypto';
import { ApiError, type ErrorDetail } from '../../kernel/errors.js';
import type { IssuerServiceDeps } from './issuer-deps.js';
import { PFX_MAX_BYTES, uploadCertificate, type CertificateUploadResult } from './upload-certificate.js';

/** Limits of the multipart body: one small file and a password, nothing else worth reading. */
export const CERTIFICATE_UPLOAD_LIMITS = { fileSize: PFX_MAX_BYTES, files: 1, fields: 4, fieldSize: 1024, parts: 5 };

/** One part of a multipart body, as @fastify/multipart hands it over. */
export type UploadPart =
  | { type: 'file'; fieldname: string; toBuffer(): Promise<Buffer> }
  | { type: 'field'; fieldname: string; value: unknown };

/** What the use case needs of the HTTP request. */
export interface CertificateUploadRequest {
  /** The parts of the multipart body, read once, in order. */
  parts: AsyncIterable<UploadPart>;
  /**
   * Claims the request's Idempotency-Key for this body hash (src/http/plugins/idempotency.ts): true
   * when the upload may run, false when the answer was already sent (a replay).
   */
  claimIdempotency(bodyHash: string): Promise<boolean>;
}

const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

async function readParts(parts: AsyncIterable<UploadPart>): Promise<{ pfx?: Buffer; password?: string }> {
  let pfx: Buffer | undefined;
  let password: string | undefined;
  try {
    for await (const part of parts) {
      if (part.type === 'file' && part.fieldname === 'pfx') pfx = await part.toBuffer();
      else if (part.type === 'file') await part.toBuffer(); // drain an unexpected file
      else if (part.fieldname === 'password') password = String(part.value);
    }
  } catch (err) {
    // Limits (FST_*) keep their own answers; a truncated or garbled body is the client's fault, not a 500.
    if ((err as { code?: string }).code?.startsWith('FST_') || err instanceof ApiError) throw err;
    throw new ApiError('invalid_request', 'The multipart body is malformed (unexpected end or bad boundary)');
  }
  return { pfx, password };
}

/**
 * The Idempotency-Key's body hash: digests only, so the file and the password themselves never reach
 * the idempotency table. The same text canonicalJson({ pfx, password }) gives (keys sorted, no
 * spaces), so keys claimed before this code moved here still match; it is independent of the
 * multipart boundary, so one key with another file or password is a conflict.
 */
export function certificateBodyHash(pfx: Buffer, password: string): string {
  return sha256Hex(JSON.stringify({ password: sha256Hex(password), pfx: sha256Hex(pfx) }));
}

/**
 * POST /v1/issuers/:id/certificate: reads the .pfx and its password from the multipart body, claims
 * the Idempotency-Key once the parts are known, then checks and stores the certificate. Null when
 * the key's first answer was replayed instead.
 */
export async function receiveCertificateUpload(
  deps: IssuerServiceDeps,
  accountId: string,
  issuerId: string,
  request: CertificateUploadRequest,
): Promise<CertificateUploadResult | null> {
  const { pfx, password } = await readParts(request.parts);
  const missing: ErrorDetail[] = [];
  if (!pfx?.length) missing.push({ field: 'pfx', message: 'is required (the .pfx file)' });
  if (password === undefined) missing.push({ field: 'password', message: 'is required' });
  if (missing.length) throw new ApiError('validation_error', `${missing[0]!.field} ${missing[0]!.message}`, missing);
  if (!(await request.claimIdempotency(certificateBodyHash(pfx!, password!)))) return null;
  return uploadCertificate(deps, accountId, issuerId, pfx!, password!);
}
