import type { KeyStorageMode } from '../../security/key-provider.js';
import type { Queryable } from '../db.js';

/** A stored certificate: clear facts for display, key and certificate as envelope blobs. */
export interface CertificateRecord {
  issuer_id: string;
  version: number;
  subject: string;
  common_name: string;
  issuer_dn: string;
  cnpj: string | null;
  cpf: string | null;
  serial_number: string;
  fingerprint_sha256: string;
  not_before: Date;
  not_after: Date;
  storage_mode: KeyStorageMode;
  master_key_id: string;
  private_key_blob: string;
  certificate_blob: string;
  uploaded_at: Date;
}

export interface CscRecord {
  issuer_id: string;
  version: number;
  id_csc: string;
  csc_blob: string;
  registered_at: Date;
}

/** Inserts or replaces the issuer's certificate in one statement; each replacement bumps `version`. */
export async function upsertCertificate(db: Queryable, c: Omit<CertificateRecord, 'version'>): Promise<CertificateRecord> {
  const r = await db.query<CertificateRecord>(
    `INSERT INTO issuer_certificates (issuer_id, version, subject, common_name, issuer_dn, cnpj, cpf, serial_number,
        fingerprint_sha256, not_before, not_after, storage_mode, master_key_id, private_key_blob, certificate_blob, uploaded_at)
     VALUES ($1, 1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
     ON CONFLICT (issuer_id) DO UPDATE SET version = issuer_certificates.version + 1,
        subject = EXCLUDED.subject, common_name = EXCLUDED.common_name, issuer_dn = EXCLUDED.issuer_dn,
        cnpj = EXCLUDED.cnpj, cpf = EXCLUDED.cpf, serial_number = EXCLUDED.serial_number,
        fingerprint_sha256 = EXCLUDED.fingerprint_sha256, not_before = EXCLUDED.not_before, not_after = EXCLUDED.not_after,
        storage_mode = EXCLUDED.storage_mode, master_key_id = EXCLUDED.master_key_id,
        private_key_blob = EXCLUDED.private_key_blob, certificate_blob = EXCLUDED.certificate_blob, uploaded_at = EXCLUDED.uploaded_at
     RETURNING *`,
    [
      c.issuer_id, c.subject, c.common_name, c.issuer_dn, c.cnpj, c.cpf, c.serial_number, c.fingerprint_sha256,
      c.not_before, c.not_after, c.storage_mode, c.master_key_id, c.private_key_blob, c.certificate_blob, c.uploaded_at,
    ],
  );
  return r.rows[0]!;
}

export async function upsertCsc(db: Queryable, c: Omit<CscRecord, 'version'>): Promise<CscRecord> {
  const r = await db.query<CscRecord>(
    `INSERT INTO issuer_cscs (issuer_id, version, id_csc, csc_blob, registered_at) VALUES ($1, 1, $2, $3, $4)
     ON CONFLICT (issuer_id) DO UPDATE SET version = issuer_cscs.version + 1, id_csc = EXCLUDED.id_csc,
        csc_blob = EXCLUDED.csc_blob, registered_at = EXCLUDED.registered_at
     RETURNING *`,
    [c.issuer_id, c.id_csc, c.csc_blob, c.registered_at],
  );
  return r.rows[0]!;
}

/** Current versions of an account's issuer secrets (one cheap read; decides whether a cache is fresh). */
export async function secretVersions(
  db: Queryable,
  accountId: string,
  issuerId: string,
): Promise<{ cert_version: number | null; csc_version: number | null } | undefined> {
  const r = await db.query<{ cert_version: number | null; csc_version: number | null }>(
    `SELECT c.version AS cert_version, s.version AS csc_version
       FROM issuers i
       LEFT JOIN issuer_certificates c ON c.issuer_id = i.id
       LEFT JOIN issuer_cscs s ON s.issuer_id = i.id
      WHERE i.account_id = $1 AND i.id = $2`,
    [accountId, issuerId],
  );
  return r.rows[0];
}

export async function findCertificate(db: Queryable, issuerId: string): Promise<CertificateRecord | undefined> {
  return (await db.query<CertificateRecord>('SELECT * FROM issuer_certificates WHERE issuer_id = $1', [issuerId])).rows[0];
}

/** An issuer holding the certificate with this SHA-256 fingerprint (of `accountId`, when given): the breaker's probe borrows it. */
export async function issuerWithCertificate(db: Queryable, fingerprint: string, accountId: string | null = null): Promise<{ issuer_id: string; account_id: string } | undefined> {
  const r = await db.query<{ issuer_id: string; account_id: string }>(
    `SELECT c.issuer_id, i.account_id FROM issuer_certificates c JOIN issuers i ON i.id = c.issuer_id
      WHERE c.fingerprint_sha256 = $1 AND ($2::text IS NULL OR i.account_id = $2) LIMIT 1`,
    [fingerprint, accountId],
  );
  return r.rows[0];
}

export async function findCsc(db: Queryable, issuerId: string): Promise<CscRecord | undefined> {
  return (await db.query<CscRecord>('SELECT * FROM issuer_cscs WHERE issuer_id = $1', [issuerId])).rows[0];
}

/** The blobs of a certificate re-wrapped under another key provider (the certificate itself is unchanged). */
export interface RewrappedCertificate {
  version: number;
  storage_mode: KeyStorageMode;
  master_key_id: string;
  private_key_blob: string;
  certificate_blob: string;
}

/**
 * Replaces a certificate's blobs if it is still the version that was re-wrapped (a certificate
 * uploaded meanwhile wins; the caller answers 409). Bumps `version` so every process drops the
 * material it cached and opens the new blobs. False when the version moved.
 */
export async function replaceCertificateBlobs(db: Queryable, issuerId: string, c: RewrappedCertificate): Promise<boolean> {
  const r = await db.query(
    `UPDATE issuer_certificates SET version = version + 1, storage_mode = $3, master_key_id = $4,
            private_key_blob = $5, certificate_blob = $6
      WHERE issuer_id = $1 AND version = $2`,
    [issuerId, c.version, c.storage_mode, c.master_key_id, c.private_key_blob, c.certificate_blob],
  );
  return (r.rowCount ?? 0) === 1;
}

/** The CSC's counterpart of replaceCertificateBlobs. */
export async function replaceCscBlob(db: Queryable, issuerId: string, version: number, cscBlob: string): Promise<boolean> {
  const r = await db.query(`UPDATE issuer_cscs SET version = version + 1, csc_blob = $3 WHERE issuer_id = $1 AND version = $2`, [issuerId, version, cscBlob]);
  return (r.rowCount ?? 0) === 1;
}

/** How many of an account's certificates and CSCs each storage mode holds (GET /v1/hsm/status). */
export async function countSecretsByMode(db: Queryable, accountId: string): Promise<{ kind: 'certificate' | 'csc'; mode: string; count: number }[]> {
  // A CSC's mode is recorded in its blob (SecretBox writes JSON with `mode`); a certificate's in a column.
  const r = await db.query<{ kind: 'certificate' | 'csc'; mode: string; count: string }>(
    `SELECT 'certificate' AS kind, c.storage_mode AS mode, count(*) AS count
       FROM issuer_certificates c JOIN issuers i ON i.id = c.issuer_id WHERE i.account_id = $1 GROUP BY c.storage_mode
     UNION ALL
     SELECT 'csc' AS kind, (s.csc_blob::jsonb ->> 'mode') AS mode, count(*) AS count
       FROM issuer_cscs s JOIN issuers i ON i.id = s.issuer_id WHERE i.account_id = $1 GROUP BY 2`,
    [accountId],
  );
  return r.rows.map((row) => ({ kind: row.kind, mode: row.mode, count: Number(row.count) }));
}

/** Issuers of an account whose certificate or CSC is not yet under the master key `keyId`, oldest first. */
export async function issuersOutsideCustody(db: Queryable, accountId: string, keyId: string, limit: number): Promise<string[]> {
  const r = await db.query<{ id: string }>(
    `SELECT i.id FROM issuers i
       JOIN issuer_certificates c ON c.issuer_id = i.id
       LEFT JOIN issuer_cscs s ON s.issuer_id = i.id
      WHERE i.account_id = $1 AND (c.master_key_id <> $2 OR (s.csc_blob IS NOT NULL AND s.csc_blob::jsonb ->> 'kid' <> $2))
      ORDER BY i.created_at, i.id LIMIT $3`,
    [accountId, keyId, limit],
  );
  return r.rows.map((row) => row.id);
}
