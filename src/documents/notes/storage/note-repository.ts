import type { Db, Queryable } from '../../../infra/storage/db.js';
import { newId } from '../../../kernel/ids.js';
import { EMISSION_BASIS_SQL } from '../../../infra/storage/repositories/issuer-repository.js';
import { insertJobsSql } from '../../../infra/queue/queue.js';
import { NUMBERING_GUARD, numberingParams, type NumberingClaim } from '../../../infra/storage/repositories/numbering-repository.js';
import type { Note, NoteStatus } from '../domain/note.js';

/** Columns a listing needs: everything but the XML documents. */
const SUMMARY = `id, account_id, issuer_id, external_ref, status, model, serie, number, access_key, tp_amb, tp_emis, dh_emi,
  schema_package, request, totals, items, digest_value, qrcode_url, url_chave, protocolo, authorized_at, rejection,
  cancellation, attempts, receipt, corrections, nfse_key, nfse_number, contingency, epec, scenario, idempotency_key, created_at, updated_at,
  CASE WHEN model = 55 AND tp_emis IN (4, 6, 7) THEN substring(signed_xml from '<dhCont>[^<]*</dhCont>[[:space:]]*<xJust>[^<]*</xJust>') END AS svc_contingency_xml`;

export type NewNote = Omit<Note, 'protocolo' | 'authorized_at' | 'proc_xml' | 'rejection' | 'cancellation' | 'cancel_proc_xml' | 'attempts' | 'updated_at' | 'nfse_key' | 'nfse_number'> & {
  /** An event recorded with the note (a sale issued straight into contingency: nfce.contingency_issued). */
  event?: { type: string; subjectType: string; data: unknown } | undefined;
  /** The note holds its external_ref among its issuer's live notes of its model (migration 40); false by default. */
  external_ref_unique?: boolean | undefined;
};

/** The issuer state a batch of notes was built from (findIssuerForEmission's `basis`). */
export interface IssuerBasis {
  issuerId: string;
  basis: string;
}

/** What the statement storing notes checks before it stores anything. */
export interface InsertGuards {
  numbering?: NumberingClaim | undefined;
  issuers?: readonly IssuerBasis[] | undefined;
}

/**
 * Stores new notes, each with its first history line and the job that will authorize it, in one
 * statement (one round trip for a whole batch of sales): they exist together or not at all. The
 * rows travel as one JSON array, so the statement text is the same for any batch size.
 *
 * Guards, checked by the same statement, which stores nothing when one fails:
 * - `numbering`: the statement also takes the notes' numbers (docs/decisions.md#numbering). It moves the
 *   series' counter from `expected` to `updated` and deletes the released numbers used;
 *   numbering_holds() (migration 8) aborts it with SQLSTATE FGN01 when the series is not where the
 *   caller built from (another sale, process or inutilization moved it, or a number was released
 *   since). The counter row is locked only while the statement runs.
 * - `issuers`: every issuer the notes were built from is unchanged (SQLSTATE FGI01 otherwise).
 */
export async function insertNotes(
  tx: Queryable,
  notes: readonly NewNote[],
  work: { history: (n: NewNote) => { type: string; message: string }; job: { kind: string; maxAttempts: number } },
  guards: InsertGuards = {},
): Promise<Note[]> {
  const rows = notes.map(({ event, ...n }) => {
    const history = work.history(n);
    const ev = event ? { event_id: newId('evt'), event_type: event.type, event_subject: event.subjectType, event_data: event.data } : {};
    return { ...n, ...ev, history_id: newId('evt'), history_type: history.type, history_message: history.message, job_id: newId('job') };
  });
  const params: unknown[] = [JSON.stringify(rows), work.job.kind, work.job.maxAttempts];
  const { numbering, issuers } = guards;
  if (numbering) params.push(...numberingParams(numbering));
  if (issuers) params.push(JSON.stringify(issuers));
  const r = await tx.query<Note>(insertNotesSql(!!numbering, !!issuers), params);
  // RETURNING order is not guaranteed: answer in the callers' order.
  const byId = new Map(r.rows.map((row) => [row.id, row]));
  return notes.map((n) => byId.get(n.id)!);
}

// $N: a JSON array of {issuerId, basis}; each basis must still be the issuer's (EMISSION_BASIS_SQL).
const issuerGuard = (n: number) => `issuer AS (
       SELECT issuer_holds(NOT EXISTS (
         SELECT 1 FROM jsonb_to_recordset($${n}::jsonb) AS b ("issuerId" text, basis text)
          WHERE NOT EXISTS (
            SELECT 1 FROM issuers i JOIN accounts a ON a.id = i.account_id
              LEFT JOIN issuer_certificates c ON c.issuer_id = i.id
              LEFT JOIN issuer_cscs s ON s.issuer_id = i.id
             WHERE i.id = b."issuerId" AND ${EMISSION_BASIS_SQL} = b.basis))) AS ok),`;

const insertSqlTexts = new Map<string, string>();

function insertNotesSql(numbering: boolean, issuers: boolean): string {
  const key = `${numbering}:${issuers}`;
  let sql = insertSqlTexts.get(key);
  if (sql) return sql;
  const ctes = [numbering ? NUMBERING_GUARD : '', issuers ? issuerGuard(numbering ? 12 : 4) : ''].join('\n     ');
  const conditions = [numbering ? '(SELECT ok FROM numbering)' : '', issuers ? '(SELECT ok FROM issuer)' : ''].filter(Boolean);
  const where = conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '';
  sql = `WITH ${ctes}
     v AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS v (id text, account_id text, issuer_id text, external_ref text, status text,
         model int, serie int, number int, access_key text, tp_amb int, tp_emis int, dh_emi text, schema_package text,
         request jsonb, totals jsonb, items jsonb, signed_xml text, digest_value text, qrcode_url text, url_chave text,
         scenario text, idempotency_key text, created_at timestamptz, history_id text, history_type text, history_message text,
         job_id text, contingency jsonb, event_id text, event_type text, event_subject text, event_data jsonb,
         external_ref_unique boolean)${where}),
     n AS (
       INSERT INTO notes (id, account_id, issuer_id, external_ref, status, model, serie, number, access_key, tp_amb, tp_emis,
         dh_emi, schema_package, request, totals, items, signed_xml, digest_value, qrcode_url, url_chave, scenario, idempotency_key,
         contingency, external_ref_unique, created_at, updated_at)
       SELECT id, account_id, issuer_id, external_ref, status, model, serie, number, access_key, tp_amb, tp_emis,
         dh_emi, schema_package, request, totals, items, signed_xml, digest_value, qrcode_url, url_chave, scenario, idempotency_key,
         contingency, coalesce(external_ref_unique, false), created_at, created_at FROM v
       RETURNING ${SUMMARY}),
     h AS (
       INSERT INTO note_history (id, note_id, type, at, message)
       SELECT history_id, id, history_type, created_at, history_message FROM v),
     j AS (
       ${insertJobsSql({
         id: 'job_id',
         kind: '$2',
         payload: "CASE WHEN status = 'contingency' THEN jsonb_build_object('noteId', id, 'contingency', true) ELSE jsonb_build_object('noteId', id) END",
         runAt: 'created_at',
         maxAttempts: '$3',
         dedupeKey: "$2 || ':' || id || CASE WHEN status = 'contingency' THEN ':contingency' ELSE '' END",
         at: 'created_at',
         from: 'v',
       })}),
     e AS (
       INSERT INTO events (id, account_id, type, subject_type, subject_id, data, created_at)
       SELECT event_id, account_id, event_type, event_subject, id, event_data, created_at FROM v WHERE event_type IS NOT NULL)
     SELECT * FROM n`;
  insertSqlTexts.set(key, sql);
  return sql;
}

/** The note a live Idempotency-Key created (keys live 24 hours: docs/guides/api.md#contract-idempotency). */
export async function findNoteByIdempotencyKey(db: Queryable, accountId: string, key: string, since: Date): Promise<Note | undefined> {
  const r = await db.query<Note>(
    `SELECT ${SUMMARY} FROM notes WHERE account_id = $1 AND idempotency_key = $2 AND created_at > $3`,
    [accountId, key, since],
  );
  return r.rows[0];
}

/** The live note holding an external_ref for its issuer and model (notes_external_ref_live, migration 40). */
export async function findNoteHoldingExternalRef(db: Queryable, accountId: string, issuerId: string, model: number, ref: string): Promise<Note | undefined> {
  const r = await db.query<Note>(
    `SELECT ${SUMMARY} FROM notes WHERE account_id = $1 AND issuer_id = $2 AND model = $3 AND external_ref = $4
        AND external_ref_unique AND status IN ('processing', 'contingency', 'authorized')`,
    [accountId, issuerId, model, ref],
  );
  return r.rows[0];
}

/** The unique index a note's external_ref breaks (SQLSTATE 23505 with this constraint). */
export const EXTERNAL_REF_INDEX = 'notes_external_ref_live';

/** Expired keys may start new sales: the old notes let go of them. Answers how many did. */
export async function releaseExpiredIdempotencyKeys(
  tx: Queryable,
  accountId: string,
  keys: ReadonlyArray<{ key: string; liveSince: Date }>,
): Promise<number> {
  const r = await tx.query(
    `UPDATE notes n SET idempotency_key = NULL
       FROM unnest($2::text[], $3::timestamptz[]) AS k (key, since)
      WHERE n.account_id = $1 AND n.idempotency_key = k.key AND n.created_at <= k.since`,
    [accountId, keys.map((k) => k.key), keys.map((k) => k.liveSince)],
  );
  return r.rowCount;
}

/** The account's note; with `model`, only a note of that model (an NF-e id is not an NFC-e). */
export async function getNote(
  db: Queryable,
  accountId: string,
  id: string,
  opts: { full?: boolean; model?: number } = {},
): Promise<Note | undefined> {
  const cols = opts.full ? '*' : SUMMARY;
  const r = await db.query<Note>(
    `SELECT ${cols} FROM notes WHERE account_id = $1 AND id = $2 AND ($3::int IS NULL OR model = $3)`,
    [accountId, id, opts.model ?? null],
  );
  return r.rows[0];
}

/** For workers: the note by id alone, locked for the rest of the transaction when `forUpdate`. */
export async function getNoteForWork(db: Queryable, id: string, forUpdate = false): Promise<Note | undefined> {
  const r = await db.query<Note>(`SELECT * FROM notes WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [id]);
  return r.rows[0];
}

export interface NoteForWork {
  note: Note;
  issuer: { uf: string; certificate: { version: number } | null; csc: { version: number } | null };
}

/** A note with what a worker needs of its issuer (state, secret versions), in one round trip. */
export async function getNoteWithIssuer(db: Queryable, id: string): Promise<NoteForWork | undefined> {
  const r = await db.query<Note & { issuer_uf: string; cert_version: number | null; csc_version: number | null }>(
    `SELECT n.*, i.uf AS issuer_uf, c.version AS cert_version, s.version AS csc_version
       FROM notes n
       JOIN issuers i ON i.id = n.issuer_id
       LEFT JOIN issuer_certificates c ON c.issuer_id = i.id
       LEFT JOIN issuer_cscs s ON s.issuer_id = i.id
      WHERE n.id = $1`,
    [id],
  );
  const row = r.rows[0];
  if (!row) return undefined;
  const { issuer_uf, cert_version, csc_version, ...note } = row;
  return {
    note: note as Note,
    issuer: { uf: issuer_uf, certificate: cert_version === null ? null : { version: cert_version }, csc: csc_version === null ? null : { version: csc_version } },
  };
}

export interface NoteListFilter {
  model?: number;
  issuerId?: string;
  status?: NoteStatus;
  externalRef?: string;
  createdGte?: Date;
  createdLt?: Date;
  startingAfter?: string;
  limit: number;
}

export async function listNoteRows(db: Queryable, accountId: string, f: NoteListFilter): Promise<Note[]> {
  // Newest first; ids are random, so the cursor is (created_at, id) of the row named by starting_after.
  const r = await db.query<Note>(
    `SELECT ${SUMMARY} FROM notes n
      WHERE account_id = $1
        AND ($2::text IS NULL OR issuer_id = $2)
        AND ($3::text IS NULL OR status = $3)
        AND ($4::text IS NULL OR external_ref = $4)
        AND ($5::timestamptz IS NULL OR created_at >= $5)
        AND ($6::timestamptz IS NULL OR created_at < $6)
        AND ($7::text IS NULL OR (created_at, id) < (SELECT created_at, id FROM notes WHERE account_id = $1 AND id = $7))
        AND ($9::int IS NULL OR model = $9)
      ORDER BY created_at DESC, id DESC
      LIMIT $8`,
    [accountId, f.issuerId ?? null, f.status ?? null, f.externalRef ?? null, f.createdGte ?? null, f.createdLt ?? null, f.startingAfter ?? null, f.limit, f.model ?? null],
  );
  return r.rows;
}

export async function updateNote(tx: Queryable, id: string, fields: Partial<Note>, now: Date): Promise<void> {
  await updateNoteIf(tx, id, null, fields, now);
}

/**
 * Updates the note only while it is in `expectedStatus` (null: any) and returns it as updated, or
 * undefined when another worker changed it first: the check and the write are one statement.
 */
export async function updateNoteIf(
  tx: Queryable,
  id: string,
  expectedStatus: NoteStatus | null,
  fields: Partial<Note>,
  now: Date,
): Promise<Note | undefined> {
  const entries = Object.entries(fields);
  const sets = entries.map(([k], i) => `${k} = $${i + 4}`);
  const values = entries.map(([, v]) => (v !== null && typeof v === 'object' && !(v instanceof Date) ? JSON.stringify(v) : v));
  const r = await tx.query<Note>(
    `UPDATE notes SET ${[...sets, 'updated_at = $2'].join(', ')} WHERE id = $1 AND ($3::text IS NULL OR status = $3) RETURNING ${SUMMARY}`,
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
    `INSERT INTO note_history (id, note_id, type, at, code, message, protocolo) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [newId('evt'), noteId, e.type, e.at, e.code ?? null, e.message ?? null, e.protocolo ?? null],
  );
}

export async function listHistory(db: Queryable, noteId: string): Promise<HistoryEntry[]> {
  const r = await db.query<HistoryEntry>(
    'SELECT id, type, at, code, message, protocolo FROM note_history WHERE note_id = $1 ORDER BY seq',
    [noteId],
  );
  return r.rows;
}

/** Keeps the receipt of the lot holding a processing note, with its history lines, in one transaction. */
export async function settleReceipt(db: Db, noteId: string, nRec: string, lines: ReadonlyArray<{ type: string; at: Date; code?: string | null; message?: string | null }>): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(`UPDATE notes SET receipt = $2, updated_at = $3 WHERE id = $1 AND status = 'processing'`, [noteId, nRec, lines[lines.length - 1]!.at]);
    for (const line of lines) await addHistory(tx, noteId, line);
  });
}

/** Per issuer of an account: NFC-e waiting in contingency and first attempts still to settle (GET /v1/contingency). */
export interface OutstandingContingency {
  issuer_id: string;
  outstanding: number;
  oldest_entered_at: string | null;
  next_deadline_at: string | null;
  first_attempts_pending: number;
}

export async function outstandingContingency(db: Queryable, accountId: string): Promise<OutstandingContingency[]> {
  // The partial index notes_outstanding_contingency (migration 18) serves the first half.
  const r = await db.query<OutstandingContingency>(
    `SELECT issuer_id,
            count(*) FILTER (WHERE status = 'contingency')::int AS outstanding,
            min(contingency->>'entered_at') FILTER (WHERE status = 'contingency') AS oldest_entered_at,
            min(contingency->>'deadline_at') FILTER (WHERE status = 'contingency') AS next_deadline_at,
            count(*) FILTER (WHERE contingency->'first_attempt'->>'outcome' = 'pending')::int AS first_attempts_pending
       FROM notes
      WHERE account_id = $1 AND contingency IS NOT NULL
        AND (status = 'contingency' OR contingency->'first_attempt'->>'outcome' = 'pending')
      GROUP BY issuer_id ORDER BY issuer_id`,
    [accountId],
  );
  return r.rows;
}
