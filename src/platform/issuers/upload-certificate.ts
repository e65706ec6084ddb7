import { X509Certificate } from 'node:crypto';
import { basicConstraintsCa } from '../../fiscal/certificate/basic-constraints.js';
import {
  CertificateError,
  certificateValidityProblem,
  cnpjRootMatches,
  type ParsedCertificate,
} from '../../fiscal/certificate/pfx.js';
import { openPfx, PfxOpenerBusyError } from '../../fiscal/certificate/pfx-worker-pool.js';
import { signingKeyProblem } from '../../fiscal/certificate/signing-key.js';
import { ApiError } from '../../kernel/errors.js';
import { upsertCertificate, type CertificateRecord } from '../../infra/storage/repositories/issuer-secret-repository.js';
import { secretAad, type IssuerServiceDeps } from './issuer-deps.js';
import { assertIssuerActive } from './archive-issuer.js';
import { getIssuer } from './manage-issuers.js';

export const PFX_MAX_BYTES = 64 * 1024;

export interface CertificateUploadResult {
  record: CertificateRecord;
  warnings: string[];
}

const day = (d: Date) => d.toISOString().slice(0, 10);

/** 422 naming the part to fix: the password when it is wrong, the file for everything else. */
function refuse(message: string, field: 'pfx' | 'password' = 'pfx'): never {
  throw new ApiError('certificate_invalid', message, [{ field, message }]);
}

/**
 * Checks an A1 certificate fully, then stores its key and certificate envelope-encrypted in one
 * statement: a refused upload leaves the previous certificate in place.
 */
export async function uploadCertificate(
  deps: IssuerServiceDeps,
  accountId: string,
  issuerId: string,
  pfx: Buffer,
  password: string,
): Promise<CertificateUploadResult> {
  const issuer = await getIssuer(deps, accountId, issuerId);
  assertIssuerActive(issuer);
  let cert: ParsedCertificate;
  try {
    // Opened in a worker thread with a time limit, never on the event loop.
    cert = await openPfx(pfx, password);
  } catch (err) {
    if (err instanceof CertificateError) refuse(err.message, err.reason === 'wrong_password' ? 'password' : 'pfx');
    if (err instanceof PfxOpenerBusyError) {
      throw new ApiError('service_unavailable', 'Too many certificate files are being checked right now; try again in a few seconds.', undefined, {
        'retry-after': '5',
      });
    }
    throw err;
  }
  const now = deps.clock.now();
  const validity = certificateValidityProblem(cert, now);
  if (validity === 'expired') refuse(`The certificate expired on ${day(cert.notAfter)}; upload a current A1 certificate.`);
  if (validity === 'not_yet_valid') refuse(`The certificate is valid only from ${day(cert.notBefore)}; upload it from that day on.`);
  // MOC 4.1 E01 (290) / A01 (280): a CA certificate (basicConstraints cA true) neither signs nor transmits.
  if (basicConstraintsCa(new X509Certificate(cert.certificateDer))) refuse('This is a certificate authority\'s certificate (basicConstraints CA:TRUE); the authority refuses documents signed with it (290). Upload the A1 certificate issued to the company.');
  // RSA 2048..4096 only (after validity, so an old expired file says it expired).
  const keyProblem = signingKeyProblem(cert.privateKey);
  if (keyProblem) refuse(keyProblem);

  const warnings: string[] = [];
  if (cert.cnpj === null) {
    // cStat 213: the authority compares the CNPJ root of the signer with the issuer's; without a CNPJ
    // in the certificate every note would be rejected. The sandbox accepts it for testing.
    const what = cert.cpf ? `an e-CPF certificate (CPF ${cert.cpf})` : 'a certificate without a CNPJ';
    const message = `This is ${what}; the authority requires an e-CNPJ certificate whose CNPJ root matches the issuer's (${issuer.cnpj.slice(0, 8)}).`;
    if (deps.env === 'production') refuse(message);
    warnings.push(`${message} Accepted in the sandbox only.`);
  } else if (!cnpjRootMatches(cert.cnpj, issuer.cnpj)) {
    refuse(`The certificate belongs to CNPJ ${cert.cnpj}, whose root ${cert.cnpj.slice(0, 8)} differs from the issuer's ${issuer.cnpj.slice(0, 8)}.`);
  }

  const record = await upsertCertificate(deps.db, {
    issuer_id: issuer.id,
    subject: cert.subject,
    common_name: cert.commonName,
    issuer_dn: cert.issuer,
    cnpj: cert.cnpj,
    cpf: cert.cpf,
    serial_number: cert.serialNumber,
    fingerprint_sha256: cert.fingerprintSha256,
    not_before: cert.notBefore,
    not_after: cert.notAfter,
    // Under the custody provider (KEY_PROVIDER): an HSM or KMS when one is configured.
    storage_mode: deps.secrets.custody.mode,
    master_key_id: deps.secrets.custody.keyId,
    private_key_blob: await deps.secrets.encrypt(Buffer.from(cert.privateKeyPem, 'utf8'), secretAad.certificateKey(issuer.id), deps.secrets.custody),
    certificate_blob: await deps.secrets.encrypt(cert.certificateDer, secretAad.certificate(issuer.id), deps.secrets.custody),
    uploaded_at: now,
  });
  await deps.hooks?.onCertificateStored?.(issuer, cert.certificatePem, cert);
  return { record, warnings };
}

export function presentCertificate(record: CertificateRecord, warnings: string[], now: Date) {
  return {
    issuer_id: record.issuer_id,
    status: (record.not_after.getTime() < now.getTime() ? 'expired' : 'valid') as 'valid' | 'expired',
    subject: record.subject,
    cnpj: record.cnpj,
    cpf: record.cpf,
    serial_number: record.serial_number,
    issuer: record.issuer_dn,
    fingerprint_sha256: record.fingerprint_sha256,
    not_before: record.not_before.toISOString(),
    not_after: record.not_after.toISOString(),
    storage_mode: record.storage_mode,
    uploaded_at: record.uploaded_at.toISOString(),
    warnings,
  };
}
