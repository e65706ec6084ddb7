import type { Queryable } from '../db.js';
import { newId } from '../../ids.js';

export type NfceStatus = 'processing' | 'authorized' | 'rejected' | 'denied' | 'canceled' | 'contingency';

export interface NfceRow {
  id: string;
  account_id: string;
  issuer_id: string;
  external_ref: string | null;
  status: NfceStatus;
  model: number;
  serie: number;
  number: number;
  access_key: string;
  tp_amb: number;
  tp_emis: number;
  dh_emi: string;
  schema_package: 'PL_009' | 'PL_010';
  request: unknown;
  totals: Record<string, number>;
  items: unknown[];
  signed_xml: string;
  digest_value: string;
  qrcode_url: string;
  url_chave: string;
  protocolo: string | null;
  authorized_at: Date | null;
  proc_xml: string | null;
  rejection: { code: string; message: string; field: string | null; hint: string | null } | null;
  cancellation: { protocolo: string; reason: string; canceled_at: string } | { status: 'pending'; reason: string; requested_at: string } | null;
  cancel_proc_xml: string | null;
  attempts: number;
  scenario: string | null;
  idempotency_key: string | null;
  created_at: Date;
  updated_at: Date;
}

/** Columns a listing needs: everything but the XML documents. */
const SUMMARY = `id, account_id, issuer_id, external_ref, status, model, serie, number, access_key, tp_amb, tp_emis, dh_emi,
  schema_package, request, totals, items, digest_value, qrcode_url, url_chave, protocolo, authorized_at, rejection,
  cancellation, attempts, scenario, idempotency_key, created_at, updated_at`;

export type NewNfce = Omit<NfceRow, 'protocolo' | 'authorized_at' | 'proc_xml' | 'rejection' | 'cancellation' | 'cancel_proc_xml' | 'attempts' | 'updated_at'>;

/**
 * Stores a new note with its first history line and the job that will authorize it, in one
 * statement (one round trip on the sale's hot path): the three exist together or not at all.
 */
export async function insertNfce(
  tx: Queryable,
  n: NewNfce,
  work: { history: { type: string; message: string }; job: { kind: string; maxAttempts: number } },
): Promise<NfceRow> {
  const r = await tx.query<NfceRow>(
    `WITH n AS (
       INSERT INTO nfce_notes (id, account_id, issuer_id, external_ref, status, model, serie, number, access_key, tp_amb, tp_emis,
         dh_emi, schema_package, request, totals, items, signed_xml, digest_value, qrcode_url, url_chave, scenario, idempotency_key,
         created_at, updated_at)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,$23)
       RETURNING ${SUMMARY}),
     h AS (
       INSERT INTO nfce_history (id, note_id, type, at, message) SELECT $24, n.id, $25, $23, $26 FROM n),
     j AS (
       INSERT INTO jobs (id, kind, payload, run_at, max_attempts, dedupe_key, created_at, updated_at)
       SELECT $27, $28, jsonb_build_object('noteId', n.id), $23, $29, $28 || ':' || n.id, $23, $23 FROM n)
     SELECT * FROM n`,
    [
      n.id, n.account_id, n.issuer_id, n.external_ref, n.status, n.model, n.serie, n.number, n.access_key, n.tp_amb, n.tp_emis,
      n.dh_emi, n.schema_package, JSON.stringify(n.request), JSON.stringify(n.totals), JSON.stringify(n.items), n.signed_xml,
      n.digest_value, n.qrcode_url, n.url_chave, n.scenario, n.idempotency_key, n.created_at,
      newId('evt'), work.history.type, work.history.message, newId('job'), work.job.kind, work.job.maxAttempts,
    ],
  );
  return r.rows[0]!;
}

/** The note a live Idempotency-Key created (keys live 24 hours: SPEC 4 rule 5). */
export async function findNfceByIdempotencyKey(db: Queryable, accountId: string, key: string, since: Date): Promise<NfceRow | undefined> {
  const r = await db.query<NfceRow>(
    `SELECT ${SUMMARY} FROM nfce_notes WHERE account_id = $1 AND idempotency_key = $2 AND created_at > $3`,
    [accountId, key, since],
  );
  return r.rows[0];
}

/** An expired key may start a new sale: the old note lets go of it. */
export async function releaseExpiredIdempotencyKey(tx: Queryable, accountId: string, key: string, since: Date): Promise<void> {
  await tx.query('UPDATE nfce_notes SET idempotency_key = NULL WHERE account_id = $1 AND idempotency_key = $2 AND created_at <= $3', [accountId, key, since]);
}

export async function getNfce(db: Queryable, accountId: string, id: string, opts: { full?: boolean } = {}): Promise<NfceRow | undefined> {
  const cols = opts.full ? '*' : SUMMARY;
  const r = await db.query<NfceRow>(`SELECT ${cols} FROM nfce_notes WHERE account_id = $1 AND id = $2`, [accountId, id]);
  return r.rows[0];
}

/** For workers: the note by id alone, locked for the rest of the transaction when `forUpdate`. */
export async function getNfceForWork(db: Queryable, id: string, forUpdate = false): Promise<NfceRow | undefined> {
  const r = await db.query<NfceRow>(`SELECT * FROM nfce_notes WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [id]);
  return r.rows[0];
}

export interface NoteForWork {
  note: NfceRow;
  issuer: { uf: string; cert_version: number | null; csc_version: number | null };
}

/** A note with what a worker needs of its issuer (state, secret versions), in one round trip. */
export async function getNfceWithIssuer(db: Queryable, id: string): Promise<NoteForWork | undefined> {
  const r = await db.query<NfceRow & { issuer_uf: string; cert_version: number | null; csc_version: number | null }>(
    `SELECT n.*, i.uf AS issuer_uf, c.version AS cert_version, s.version AS csc_version
       FROM nfce_notes n
       JOIN issuers i ON i.id = n.issuer_id
       LEFT JOIN issuer_certificates c ON c.issuer_id = i.id
       LEFT JOIN issuer_cscs s ON s.issuer_id = i.id
      WHERE n.id = $1`,
    [id],
  );
  const row = r.rows[0];
  if (!row) return undefined;
  const { issuer_uf, cert_version, csc_version, ...note } = row;
  return { note: note as NfceRow, issuer: { uf: issuer_uf, cert_version, csc_version } };
}

export interface NfceListFilter {
  issuerId?: string;
  status?: NfceStatus;
  externalRef?: string;
  createdGte?: Date;
  createdLt?: Date;
  startingAfter?: string;
  limit: number;
}

export async function listNfce(db: Queryable, accountId: string, f: NfceListFilter): Promise<NfceRow[]> {
  // Newest first; ids are random, so the cursor is (created_at, id) of the row named by starting_after.
  const r = await db.query<NfceRow>(
    `SELECT ${SUMMARY} FROM nfce_notes n
      WHERE account_id = $1
        AND ($2::text IS NULL OR issuer_id = $2)
        AND ($3::text IS NULL OR status = $3)
        AND ($4::text IS NULL OR external_ref = $4)
        AND ($5::timestamptz IS NULL OR created_at >= $5)
        AND ($6::timestamptz IS NULL OR created_at < $6)
        AND ($7::text IS NULL OR (created_at, id) < (SELECT created_at, id FROM nfce_notes WHERE account_id = $1 AND id = $7))
      ORDER BY created_at DESC, id DESC
      LIMIT $8`,
    [accountId, f.issuerId ?? null, f.status ?? null, f.externalRef ?? null, f.createdGte ?? null, f.createdLt ?? null, f.startingAfter ?? null, f.limit],
  );
  return r.rows;
}

export async function updateNfce(tx: Queryable, id: string, fields: Partial<NfceRow>, now: Date): Promise<void> {
  await updateNfceIf(tx, id, null, fields, now);
}

/**
 * Updates the note only while it is in `expectedStatus` (null: any) and returns it as updated, or
 * undefined when another worker changed it first: the check and the write are one statement.
 */
export async function updateNfceIf(
  tx: Queryable,
  id: string,
  expectedStatus: NfceStatus | null,
  fields: Partial<NfceRow>,
  now: Date,
): Promise<NfceRow | undefined> {
  const entries = Object.entries(fields);
  const sets = entries.map(([k], i) => `${k} = $${i + 4}`);
  const values = entries.map(([, v]) => (v !== null && typeof v === 'object' && !(v instanceof Date) ? JSON.stringify(v) : v));
  const r = await tx.query<NfceRow>(
    `UPDATE nfce_notes SET ${[...sets, 'updated_at = $2'].join(', ')} WHERE id = $1 AND ($3::text IS NULL OR status = $3) RETURNING ${SUMMARY}`,
    [id, now, expectedStatus, ...values],
  );
  return r.rows[0];
}

export interface HistoryEntry {
  id: string;
  type: string;
  at: Date;
  code: string | null;
  message: string | null;
  protocolo: string | null;
}

export async function addHistory(
  tx: Queryable,
  noteId: string,
  e: { type: string; at: Date; code?: string | null; message?: string | null; protocolo?: string | null },
): Promise<void> {
  await tx.query(
    `INSERT INTO nfce_history (id, note_id, type, at, code, message, protocolo) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [newId('evt'), noteId, e.type, e.at, e.code ?? null, e.message ?? null, e.protocolo ?? null],
  );
}

export async function listHistory(db: Queryable, noteId: string): Promise<HistoryEntry[]> {
  const r = await db.query<HistoryEntry>(
    'SELECT id, type, at, code, message, protocolo FROM nfce_history WHERE note_id = $1 ORDER BY seq',
    [noteId],
  );
  return r.rows;
}
