import type { Queryable } from '../../../infra/storage/db.js';

/** An inutilizations row (migration 0004) as GET /v1/inutilizations/:id reads it; the XML stays out. */
export interface InutilizationRow {
  id: string;
  account_id: string;
  issuer_id: string;
  model: number;
  serie: number;
  numero_inicial: number;
  numero_final: number;
  justification: string;
  status: 'voided' | 'rejected';
  protocolo: string | null;
  rejection: { code: string; message: string; [k: string]: unknown } | null;
  created_at: Date;
}

export async function getInutilization(db: Queryable, accountId: string, id: string): Promise<InutilizationRow | undefined> {
  const r = await db.query<InutilizationRow>(
    `SELECT id, account_id, issuer_id, model, serie, numero_inicial, numero_final, justification, status, protocolo, rejection, created_at
       FROM inutilizations WHERE account_id = $1 AND id = $2`,
    [accountId, id],
  );
  return r.rows[0];
}

/** The stored ProcInutNFe of a voided range (null for a rejected one); undefined: no such record. */
export async function getInutilizationProcXml(db: Queryable, accountId: string, id: string): Promise<{ status: InutilizationRow['status']; proc_xml: string | null } | undefined> {
  const r = await db.query<{ status: InutilizationRow['status']; proc_xml: string | null }>(
    'SELECT status, proc_xml FROM inutilizations WHERE account_id = $1 AND id = $2',
    [accountId, id],
  );
  return r.rows[0];
}
