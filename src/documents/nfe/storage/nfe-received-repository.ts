import type { Queryable } from '../../../infra/storage/db.js';

// NF-e issued by other companies to one of the account's issuers, downloaded from the national
// environment (NFeDistribuicaoDFe), and where each issuer's download stands.

export interface ReceivedRow {
  id: string;
  account_id: string;
  issuer_id: string;
  access_key: string;
  nsu: string;
  issuer_cnpj: string | null;
  issuer_name: string | null;
  issued_at: string | null;
  total: string | null;
  situation: string | null;
  summary_xml: string | null;
  proc_xml: string | null;
  manifestation: ReceivedManifestation | null;
  created_at: Date;
  updated_at: Date;
}

/** The recipient's manifestations on a received note: the last registered one counts. */
export interface ReceivedManifestation {
  current: { type: string; protocolo: string; registered_at: string } | null;
  sent: Array<{ type: string; status: 'pending' | 'registered' | 'rejected'; requested_at: string; protocolo: string | null; rejection: { code: string; message: string } | null; event_id: string }>;
}

export interface CursorRow {
  issuer_id: string;
  ult_nsu: string;
  max_nsu: string;
  last_cstat: number | null;
  next_at: Date;
  updated_at: Date;
}

export async function getCursor(db: Queryable, issuerId: string): Promise<CursorRow | undefined> {
  const r = await db.query<CursorRow>('SELECT * FROM nfe_dfe_cursors WHERE issuer_id = $1', [issuerId]);
  return r.rows[0];
}

export async function saveCursor(tx: Queryable, c: Omit<CursorRow, 'updated_at'>, now: Date): Promise<void> {
  await tx.query(
    `INSERT INTO nfe_dfe_cursors (issuer_id, ult_nsu, max_nsu, last_cstat, next_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (issuer_id) DO UPDATE SET ult_nsu = EXCLUDED.ult_nsu, max_nsu = EXCLUDED.max_nsu, last_cstat = EXCLUDED.last_cstat,
       next_at = EXCLUDED.next_at, updated_at = EXCLUDED.updated_at`,
    [c.issuer_id, c.ult_nsu, c.max_nsu, c.last_cstat, c.next_at, now],
  );
}

export type ReceivedUpsert = Pick<ReceivedRow, 'id' | 'account_id' | 'issuer_id' | 'access_key' | 'nsu'> &
  Partial<Pick<ReceivedRow, 'issuer_cnpj' | 'issuer_name' | 'issued_at' | 'total' | 'situation' | 'summary_xml' | 'proc_xml'>>;

/**
 * Files a distributed document of a note: the first one creates the row, later ones (the full
 * nfeProc after a manifestation, a cancellation) fill in what they carry. Answers whether it was new.
 */
export async function upsertReceived(tx: Queryable, d: ReceivedUpsert, now: Date): Promise<{ id: string; created: boolean }> {
  const r = await tx.query<{ id: string; created: boolean }>(
    `INSERT INTO nfe_received (id, account_id, issuer_id, access_key, nsu, issuer_cnpj, issuer_name, issued_at, total, situation, summary_xml, proc_xml, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13)
     ON CONFLICT (issuer_id, access_key) DO UPDATE SET
       issuer_cnpj = COALESCE(EXCLUDED.issuer_cnpj, nfe_received.issuer_cnpj),
       issuer_name = COALESCE(EXCLUDED.issuer_name, nfe_received.issuer_name),
       issued_at = COALESCE(EXCLUDED.issued_at, nfe_received.issued_at),
       total = COALESCE(EXCLUDED.total, nfe_received.total),
       situation = COALESCE(EXCLUDED.situation, nfe_received.situation),
       summary_xml = COALESCE(EXCLUDED.summary_xml, nfe_received.summary_xml),
       proc_xml = COALESCE(EXCLUDED.proc_xml, nfe_received.proc_xml),
       updated_at = EXCLUDED.updated_at
     RETURNING id, (xmax = 0) AS created`,
    [d.id, d.account_id, d.issuer_id, d.access_key, d.nsu, d.issuer_cnpj ?? null, d.issuer_name ?? null, d.issued_at ?? null, d.total ?? null,
      d.situation ?? null, d.summary_xml ?? null, d.proc_xml ?? null, now],
  );
  return r.rows[0]!;
}

const SUMMARY = `id, account_id, issuer_id, access_key, nsu, issuer_cnpj, issuer_name, issued_at, total, situation, manifestation,
  (proc_xml IS NOT NULL) AS has_xml, created_at, updated_at`;

export type ReceivedSummaryRow = Omit<ReceivedRow, 'summary_xml' | 'proc_xml'> & { has_xml: boolean };

export async function getReceived(db: Queryable, accountId: string, id: string, forUpdate = false): Promise<ReceivedRow | undefined> {
  const r = await db.query<ReceivedRow>(`SELECT * FROM nfe_received WHERE account_id = $1 AND id = $2${forUpdate ? ' FOR UPDATE' : ''}`, [accountId, id]);
  return r.rows[0];
}

export async function listReceived(
  db: Queryable,
  accountId: string,
  f: { issuerId?: string; startingAfter?: string; limit: number },
): Promise<ReceivedSummaryRow[]> {
  const r = await db.query<ReceivedSummaryRow>(
    `SELECT ${SUMMARY} FROM nfe_received
      WHERE account_id = $1 AND ($2::text IS NULL OR issuer_id = $2)
        AND ($3::text IS NULL OR (created_at, id) < (SELECT created_at, id FROM nfe_received WHERE account_id = $1 AND id = $3))
      ORDER BY created_at DESC, id DESC LIMIT $4`,
    [accountId, f.issuerId ?? null, f.startingAfter ?? null, f.limit],
  );
  return r.rows;
}

export async function setManifestation(tx: Queryable, id: string, m: ReceivedManifestation, now: Date): Promise<void> {
  await tx.query('UPDATE nfe_received SET manifestation = $2, updated_at = $3 WHERE id = $1', [id, JSON.stringify(m), now]);
}

/** Issuers that hold a certificate: the parties whose received documents are downloaded. */
export async function issuersWithCertificate(db: Queryable): Promise<Array<{ id: string; next_at: Date | null }>> {
  const r = await db.query<{ id: string; next_at: Date | null }>(
    `SELECT i.id, c.next_at FROM issuers i JOIN issuer_certificates ic ON ic.issuer_id = i.id LEFT JOIN nfe_dfe_cursors c ON c.issuer_id = i.id`,
  );
  return r.rows;
}
