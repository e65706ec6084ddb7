// Moves an issuer's certificate key,
// certificate and CSC from the local master key to the HSM or KMS (KEY_PROVIDER). The new blobs are
// written, opened again through the provider itself (no cache) and used to sign before the old ones
// are replaced; the replacement of all three is one transaction, so a migration interrupted at any
// point leaves either the old copies or the new ones, each complete and working.
import { createPrivateKey, randomBytes, sign, verify, X509Certificate } from 'node:crypto';
import { ApiError } from '../../kernel/errors.js';
import { CachedKeyProvider } from '../../infra/security/cached-key-provider.js';
import type { KeyProvider, KeyStorageMode } from '../../infra/security/key-provider.js';
import { SecretBox } from '../../infra/security/secret-box.js';
import {
  findCertificate,
  findCsc,
  issuersOutsideCustody,
  replaceCertificateBlobs,
  replaceCscBlob,
} from '../../infra/storage/repositories/issuer-secret-repository.js';
import { secretAad, type IssuerServiceDeps } from './issuer-deps.js';
import { getIssuer } from './manage-issuers.js';

export interface CustodyMigration {
  id: string;
  object: 'certificate_custody';
  storage_mode: KeyStorageMode;
  master_key_id: string;
  key_label: string;
  /** False when everything already was under this provider (a repeated call changes nothing). */
  changed: boolean;
  secrets: { name: 'certificate_key' | 'certificate' | 'csc'; storage_mode: KeyStorageMode }[];
  verified_at: string;
}

/** Where a blob's secret goes and how its plaintext is checked. */
interface Moved {
  name: 'certificate_key' | 'certificate' | 'csc';
  aad: string;
  blob: string;
  plain: Buffer;
}

export async function migrateCertificateCustody(
  deps: Pick<IssuerServiceDeps, 'db' | 'secrets' | 'clock'>,
  accountId: string,
  issuerId: string,
): Promise<CustodyMigration> {
  // The issuer first: another account's id is 404 whatever the configuration.
  const issuer = await getIssuer(deps, accountId, issuerId);
  const target = deps.secrets.custody;
  if (target.mode === 'envelope') throw notConfigured();
  const [cert, csc] = await Promise.all([findCertificate(deps.db, issuer.id), findCsc(deps.db, issuer.id)]);
  if (!cert) {
    throw new ApiError('invalid_state', 'The issuer has no certificate to move; upload it (POST /v1/issuers/:id/certificate): it is stored under the HSM/KMS at once', [
      { field: 'certificate', message: 'missing' },
    ]);
  }

  const pending: Moved[] = [];
  const plan = [
    { name: 'certificate_key' as const, aad: secretAad.certificateKey(issuer.id), stored: cert.private_key_blob },
    { name: 'certificate' as const, aad: secretAad.certificate(issuer.id), stored: cert.certificate_blob },
    ...(csc ? [{ name: 'csc' as const, aad: secretAad.csc(issuer.id), stored: csc.csc_blob }] : []),
  ];
  for (const p of plan) {
    if (SecretBox.keyIdOf(p.stored) === target.keyId) continue;
    const plain = await deps.secrets.decrypt(p.stored, p.aad);
    pending.push({ name: p.name, aad: p.aad, plain, blob: await deps.secrets.encrypt(plain, p.aad, target) });
  }
  try {
    const secrets = plan.map((p) => ({ name: p.name, storage_mode: target.mode }));
    const answer = (changed: boolean): CustodyMigration => ({
      id: issuer.id,
      object: 'certificate_custody',
      storage_mode: target.mode,
      master_key_id: target.keyId,
      key_label: target.label,
      changed,
      secrets,
      verified_at: deps.clock.now().toISOString(),
    });
    if (pending.length === 0) return answer(false);

    await verifyMoved(target, pending, cert.private_key_blob, cert.certificate_blob, deps.secrets, issuer.id);
    const blobOf = (name: Moved['name'], fallback: string) => pending.find((m) => m.name === name)?.blob ?? fallback;
    await deps.db.transaction(async (tx) => {
      const certOk = await replaceCertificateBlobs(tx, issuer.id, {
        version: cert.version,
        storage_mode: target.mode,
        master_key_id: target.keyId,
        private_key_blob: blobOf('certificate_key', cert.private_key_blob),
        certificate_blob: blobOf('certificate', cert.certificate_blob),
      });
      const cscOk = !csc || (await replaceCscBlob(tx, issuer.id, csc.version, blobOf('csc', csc.csc_blob)));
      if (!certOk || !cscOk) {
        throw new ApiError('invalid_state', 'The certificate or CSC was replaced while it was being moved; retry (the new one may already be under the HSM/KMS)');
      }
    });
    return answer(true);
  } finally {
    for (const m of pending) m.plain.fill(0);
  }
}

/**
 * Opens every new blob through the provider itself (never a cached key) and signs a random value
 * with the key it holds, checked against the certificate's public key: only then may the old copy go.
 */
async function verifyMoved(target: KeyProvider, moved: Moved[], oldKeyBlob: string, oldCertBlob: string, box: SecretBox, issuerId: string): Promise<void> {
  const direct = new SecretBox(target instanceof CachedKeyProvider ? target.uncached : target);
  const opened = new Map<Moved['name'], Buffer>();
  for (const m of moved) {
    const back = await direct.decrypt(m.blob, m.aad);
    if (!back.equals(m.plain)) throw new Error(`custody migration: ${m.name} did not come back from ${target.label} unchanged`);
    opened.set(m.name, back);
  }
  const keyPem = opened.get('certificate_key') ?? (await box.decrypt(oldKeyBlob, secretAad.certificateKey(issuerId)));
  const certDer = opened.get('certificate') ?? (await box.decrypt(oldCertBlob, secretAad.certificate(issuerId)));
  const probe = randomBytes(32);
  const signature = sign('sha256', probe, createPrivateKey(keyPem.toString('utf8')));
  if (!verify('sha256', probe, new X509Certificate(certDer).publicKey, signature)) {
    throw new Error('custody migration: the moved key does not sign for the certificate');
  }
  for (const b of opened.values()) b.fill(0);
}

export interface BulkCustodyResult {
  issuer_id: string;
  outcome: 'migrated' | 'unchanged' | 'failed';
  error: { code: string; message: string } | null;
}

/**
 * Every issuer of the account with a certificate, one migration (one transaction) each: a failure
 * stops nothing else and leaves that issuer's old copy working. At most `limit` issuers per call,
 * those not yet under the provider first; `has_more` says another call has work left.
 */
export async function migrateAccountCustody(
  deps: Pick<IssuerServiceDeps, 'db' | 'secrets' | 'clock'>,
  accountId: string,
  limit: number,
): Promise<{ data: BulkCustodyResult[]; has_more: boolean }> {
  const target = deps.secrets.custody;
  if (target.mode === 'envelope') throw notConfigured();
  const ids = await issuersOutsideCustody(deps.db, accountId, target.keyId, limit + 1);
  const data: BulkCustodyResult[] = [];
  for (const id of ids.slice(0, limit)) {
    try {
      const r = await migrateCertificateCustody(deps, accountId, id);
      data.push({ issuer_id: id, outcome: r.changed ? 'migrated' : 'unchanged', error: null });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      data.push({ issuer_id: id, outcome: 'failed', error: { code: err.code, message: err.message } });
    }
  }
  return { data, has_more: ids.length > limit };
}

function notConfigured(): ApiError {
  return new ApiError(
    'key_provider_not_configured',
    'This gateway keeps certificate keys under its local master key (KEY_PROVIDER=envelope); set KEY_PROVIDER to pkcs11 or aws-kms to move them to an HSM or KMS',
  );
}
