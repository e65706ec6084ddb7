import { createPrivateKey, X509Certificate } from 'node:crypto';
import { ApiError } from '../../kernel/errors.js';
import type { ParsedCertificate } from '../../fiscal/certificate/pfx.js';
import type { SecretBox } from '../../infra/security/secret-box.js';
import type { Queryable } from '../../infra/storage/db.js';
import {
  findCertificate,
  findCsc,
  secretVersions,
  type CertificateRecord,
} from '../../infra/storage/repositories/issuer-secret-repository.js';
import { secretAad } from './issuer-deps.js';
import type { IssuerCertificateSummary, IssuerCscSummary, IssuerRespTec } from '../../kernel/issuer.js';
import { openCsrt } from './technical-responsible.js';

export interface IssuerSigningMaterial {
  certificate: ParsedCertificate | null;
  /** `id` without leading zeros, as the QR code wants it (docs/fiscal/qrcode.md#version-2: `0|[1-9][0-9]{0,5}`). */
  csc: { id: string; token: string } | null;
  /** The CSRT of the technical responsible the issuer's notes carry (infRespTec, NT 2018.005), opened; null without one. */
  csrt: { id: string; token: string } | null;
}

/** What a caller already read of the issuer (the issuer itself, or a note's join): the versions of its secrets, its resp_tec. */
export interface KnownIssuerSecrets {
  certificate: Pick<IssuerCertificateSummary, 'version'> | null;
  csc: Pick<IssuerCscSummary, 'version'> | null;
  resp_tec?: IssuerRespTec | null;
}

interface CacheEntry {
  loadedAt: number;
  certVersion: number | null;
  cscVersion: number | null;
  material: Omit<IssuerSigningMaterial, 'csrt'>;
}

// Decrypting and parsing the private key on every sale is needless hot-path work: the material is
// kept per issuer and reused while the stored versions are unchanged (a replacement bumps them), and,
// under an HSM or KMS, for KEY_CACHE_SECONDS at most (SecretBox.openedMaxAgeMs).
const CACHE_MAX = 1_000;
const cache = new Map<string, CacheEntry>();

/**
 * The issuer's signing key, certificate and CSC for the emission path, or undefined when the issuer
 * is not this account's. One small query per call; decryption only when a secret changed.
 */
export async function loadIssuerSigningMaterial(
  db: Queryable,
  secrets: SecretBox,
  accountId: string,
  issuerId: string,
  /** The issuer when the caller already read it: its certificate's and CSC's versions save a query per sale; its resp_tec gives the CSRT. */
  known?: KnownIssuerSecrets,
): Promise<IssuerSigningMaterial | undefined> {
  const material = await loadKeys(db, secrets, accountId, issuerId, known);
  return material && { ...material, csrt: await openCsrt(secrets, known?.resp_tec ?? null) };
}

async function loadKeys(
  db: Queryable,
  secrets: SecretBox,
  accountId: string,
  issuerId: string,
  known?: KnownIssuerSecrets,
): Promise<Omit<IssuerSigningMaterial, 'csrt'> | undefined> {
  const versions = known ? { cert_version: known.certificate?.version ?? null, csc_version: known.csc?.version ?? null } : await secretVersions(db, accountId, issuerId);
  if (!versions) return undefined;
  const key = `${accountId}\u0000${issuerId}`;
  const hit = cache.get(key);
  const fresh = hit && Date.now() - hit.loadedAt < secrets.openedMaxAgeMs;
  if (hit && fresh && hit.certVersion === versions.cert_version && hit.cscVersion === versions.csc_version) return hit.material;

  const [certRow, cscRow] = await Promise.all([
    versions.cert_version === null ? undefined : findCertificate(db, issuerId),
    versions.csc_version === null ? undefined : findCsc(db, issuerId),
  ]);
  const material: Omit<IssuerSigningMaterial, 'csrt'> = {
    certificate: certRow ? await openCertificate(secrets, certRow) : null,
    csc: cscRow
      ? { id: String(Number(cscRow.id_csc)), token: (await secrets.decrypt(cscRow.csc_blob, secretAad.csc(issuerId))).toString('utf8') }
      : null,
  };
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
  // Versions as read with the rows (a concurrent replacement between the two reads only costs a reload).
  cache.set(key, { loadedAt: Date.now(), certVersion: certRow?.version ?? null, cscVersion: cscRow?.version ?? null, material });
  return material;
}

/** Drops cached material (tests, or a process that wants to forget keys). */
export function clearSigningMaterialCache(): void {
  cache.clear();
}

async function openCertificate(secrets: SecretBox, row: CertificateRecord): Promise<ParsedCertificate> {
  const keyPem = (await secrets.decrypt(row.private_key_blob, secretAad.certificateKey(row.issuer_id))).toString('utf8');
  const der = await secrets.decrypt(row.certificate_blob, secretAad.certificate(row.issuer_id));
  const x509 = new X509Certificate(der);
  return {
    privateKey: createPrivateKey(keyPem),
    privateKeyPem: keyPem,
    certificateDer: der,
    certificatePem: x509.toString(),
    certificateBase64: der.toString('base64'),
    subject: row.subject,
    commonName: row.common_name,
    cnpj: row.cnpj,
    cpf: row.cpf,
    serialNumber: row.serial_number,
    notBefore: row.not_before,
    notAfter: row.not_after,
    fingerprintSha256: row.fingerprint_sha256,
    issuer: row.issuer_dn,
  };
}

/**
 * MOC 4.1 E02 (291): the authority refuses a document whose signing certificate is not valid when it
 * arrives, events and voiding included. The sale checks the issuer's certificate before it signs
 * (issuerReadinessProblems); cancellations, correction letters and manifestations check it here:
 * 422 issuer_not_ready naming the certificate, before anything is signed or queued.
 */
export function assertCertificateCurrent(cert: Pick<ParsedCertificate, 'notBefore' | 'notAfter'>, now: Date, what: string): void {
  const day = (d: Date) => d.toISOString().slice(0, 10);
  const problem = now.getTime() > cert.notAfter.getTime() ? `expired on ${day(cert.notAfter)}` : now.getTime() < cert.notBefore.getTime() ? `is valid only from ${day(cert.notBefore)}` : null;
  if (!problem) return;
  const message = `The certificate ${problem}; the authority refuses ${what} signed with it (291). Upload a current A1 certificate.`;
  throw new ApiError('issuer_not_ready', message, [{ field: 'certificate', message, rule: 'E02' }]);
}
