import type { Queryable } from '../../../infra/storage/db.js';

// Events of NF-e the gateway sends besides the cancellation: correction letters (110110) of its own
// notes and the recipient's manifestation (2102xx) on notes received from other companies.

export interface NfeEventRow {
  id: string;
  account_id: string;
  issuer_id: string;
  access_key: string;
  note_id: string | null;
  tp_evento: string;
  n_seq: number;
  status: 'pending' | 'registered' | 'rejected';
  detail: Record<string, unknown>;
  event_xml: string;
  proc_xml: string | null;
  protocolo: string | null;
  rejection: { code: string; message: string } | null;
  created_at: Date;
  updated_at: Date;
}

export type NewNfeEvent = Omit<NfeEventRow, 'proc_xml' | 'protocolo' | 'rejection' | 'updated_at'>;

export async function insertNfeEvent(tx: Queryable, e: NewNfeEvent): Promise<void> {
  await tx.query(
    `INSERT INTO nfe_events (id, account_id, issuer_id, access_key, note_id, tp_evento, n_seq, status, detail, event_xml, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)`,
    [e.id, e.account_id, e.issuer_id, e.access_key, e.note_id, e.tp_evento, e.n_seq, e.status, JSON.stringify(e.detail), e.event_xml, e.created_at],
  );
}

export async function getNfeEvent(db: Queryable, id: string, forUpdate = false): Promise<NfeEventRow | undefined> {
  const r = await db.query<NfeEventRow>(`SELECT * FROM nfe_events WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [id]);
  return r.rows[0];
}

/** Settles a pending event (registered or rejected); false when it was settled already. */
export async function settleNfeEvent(
  tx: Queryable,
  id: string,
  fields: { status: 'registered' | 'rejected'; proc_xml?: string | null; protocolo?: string | null; rejection?: { code: string; message: string } | null },
  now: Date,
): Promise<boolean> {
  const r = await tx.query(
    `UPDATE nfe_events SET status = $2, proc_xml = $3, protocolo = $4, rejection = $5, updated_at = $6 WHERE id = $1 AND status = 'pending'`,
    [id, fields.status, fields.proc_xml ?? null, fields.protocolo ?? null, fields.rejection ? JSON.stringify(fields.rejection) : null, now],
  );
  return r.rowCount > 0;
}

/** The archived event (procEventoNFe) of a note by type and sequence, once registered. */
export async function registeredNfeEvent(db: Queryable, noteId: string, tpEvento: string, nSeq: number): Promise<NfeEventRow | undefined> {
  const r = await db.query<NfeEventRow>(
    `SELECT * FROM nfe_events WHERE note_id = $1 AND tp_evento = $2 AND n_seq = $3 AND status = 'registered'`,
    [noteId, tpEvento, nSeq],
  );
  return r.rows[0];
}
