import type { Queryable } from '../db.js';

/** A stored technical responsible (infRespTec): of the account (issuer_id null) or of one issuer. */
export interface TechnicalResponsibleRecord {
  owner_id: string;
  account_id: string;
  issuer_id: string | null;
  version: string;
  cnpj: string;
  contact: string;
  email: string;
  phone: string;
  csrt_id: string | null;
  /** Envelope blob of the CSRT (SecretBox); never leaves the emission path. */
  csrt_blob: string | null;
  updated_at: Date;
}

export type TechnicalResponsibleWrite = Pick<TechnicalResponsibleRecord, 'account_id' | 'issuer_id' | 'cnpj' | 'contact' | 'email' | 'phone' | 'csrt_id' | 'csrt_blob' | 'updated_at'>;

/**
 * Inserts or replaces one owner's technical responsible; each write takes a new version. With
 * `keepCsrt` the stored CSRT stays (a change of contact alone need not send the secret again).
 */
export async function upsertTechnicalResponsible(db: Queryable, w: TechnicalResponsibleWrite, keepCsrt: boolean): Promise<TechnicalResponsibleRecord> {
  const r = await db.query<TechnicalResponsibleRecord>(
    `INSERT INTO technical_responsibles (owner_id, account_id, issuer_id, cnpj, contact, email, phone, csrt_id, csrt_blob, updated_at)
     VALUES (coalesce($2, $1), $1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (owner_id) DO UPDATE SET version = nextval('technical_responsible_versions'),
        cnpj = EXCLUDED.cnpj, contact = EXCLUDED.contact, email = EXCLUDED.email, phone = EXCLUDED.phone,
        csrt_id = CASE WHEN $10 THEN technical_responsibles.csrt_id ELSE EXCLUDED.csrt_id END,
        csrt_blob = CASE WHEN $10 THEN technical_responsibles.csrt_blob ELSE EXCLUDED.csrt_blob END,
        updated_at = EXCLUDED.updated_at
     RETURNING *`,
    [w.account_id, w.issuer_id, w.cnpj, w.contact, w.email, w.phone, w.csrt_id, w.csrt_blob, w.updated_at, keepCsrt],
  );
  return r.rows[0]!;
}

export async function findTechnicalResponsible(db: Queryable, accountId: string, issuerId: string | null): Promise<TechnicalResponsibleRecord | undefined> {
  const r = await db.query<TechnicalResponsibleRecord>(
    'SELECT * FROM technical_responsibles WHERE account_id = $1 AND owner_id = coalesce($2, $1)',
    [accountId, issuerId],
  );
  return r.rows[0];
}

export async function deleteTechnicalResponsible(db: Queryable, accountId: string, issuerId: string | null): Promise<boolean> {
  const r = await db.query('DELETE FROM technical_responsibles WHERE account_id = $1 AND owner_id = coalesce($2, $1)', [accountId, issuerId]);
  return (r.rowCount ?? 0) > 0;
}

/**
 * SQL (over `i`, an issuers row) of the technical responsible a sale of that issuer carries: the
 * issuer's own, else the account's; a JSON object or null.
 */
export const EFFECTIVE_RESP_TEC_SQL = `(SELECT row_to_json(t) FROM (
    SELECT owner_id, issuer_id, version::text AS version, cnpj, contact, email, phone, csrt_id, csrt_blob
      FROM technical_responsibles t WHERE t.account_id = i.account_id AND (t.issuer_id = i.id OR t.issuer_id IS NULL)
     ORDER BY t.issuer_id NULLS LAST LIMIT 1) t)`;

/** Part of the emission basis: the versions of every technical responsible that can reach the issuer's sales. */
export const RESP_TEC_BASIS_SQL = `coalesce((SELECT string_agg(t.version::text, ',' ORDER BY t.version) FROM technical_responsibles t
    WHERE t.account_id = i.account_id AND (t.issuer_id = i.id OR t.issuer_id IS NULL)), '')`;
