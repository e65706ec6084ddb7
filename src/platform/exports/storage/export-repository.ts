import type { Queryable } from '../../../infra/storage/db.js';

export type ExportKind = 'nfce' | 'nfe' | 'nfse' | 'inutilization' | 'received';
export type ExportStatus = 'queued' | 'building' | 'ready' | 'failed' | 'expired';

/** An exports row (migration 46) as the API shows it. */
export interface ExportRow {
  id: string;
  account_id: string;
  issuer_id: string;
  month: string;
  kinds: ExportKind[];
  status: ExportStatus;
  files_total: number | null;
  files_done: number;
  size_bytes: string | null;
  sha256: string | null;
  error: { code: string; message: string } | null;
  requested_by: string | null;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
  /** When a ready export's ZIP goes (migration 47). */
  expires_at: Date | null;
}

const COLUMNS = 'id, account_id, issuer_id, month, kinds, status, files_total, files_done, size_bytes, sha256, error, requested_by, created_at, updated_at, finished_at, expires_at';

export async function insertExport(tx: Queryable, e: Pick<ExportRow, 'id' | 'account_id' | 'issuer_id' | 'month' | 'kinds' | 'requested_by' | 'created_at'>): Promise<ExportRow> {
  const r = await tx.query<ExportRow>(
    `INSERT INTO exports (id, account_id, issuer_id, month, kinds, status, requested_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, 'queued', $6, $7, $7) RETURNING ${COLUMNS}`,
    [e.id, e.account_id, e.issuer_id, e.month, JSON.stringify(e.kinds), e.requested_by, e.created_at],
  );
  return r.rows[0]!;
}

export async function getExport(db: Queryable, accountId: string, id: string): Promise<ExportRow | undefined> {
  const r = await db.query<ExportRow>(`SELECT ${COLUMNS} FROM exports WHERE account_id = $1 AND id = $2`, [accountId, id]);
  return r.rows[0];
}

/** Newest first; `before` is the id of the last row of the previous page. */
export async function listExports(db: Queryable, accountId: string, f: { issuerId?: string; limit: number; before?: ExportRow }): Promise<ExportRow[]> {
  const r = await db.query<ExportRow>(
    `SELECT ${COLUMNS} FROM exports
      WHERE account_id = $1 AND ($2::text IS NULL OR issuer_id = $2)
        AND ($3::timestamptz IS NULL OR (created_at, id) < ($3, $4))
      ORDER BY created_at DESC, id DESC LIMIT $5`,
    [accountId, f.issuerId ?? null, f.before?.created_at ?? null, f.before?.id ?? null, f.limit],
  );
  return r.rows;
}

/**
 * A build (job claim `builder`) takes the export over: its chunks of an earlier attempt are dropped and
 * the counts start again. Undefined when the export is gone or already finished.
 */
export async function startExportBuild(tx: Queryable, id: string, builder: string, filesTotal: number, now: Date): Promise<ExportRow | undefined> {
  const r = await tx.query<ExportRow>(
    `UPDATE exports SET status = 'building', builder = $2, files_total = $3, files_done = 0, size_bytes = NULL, error = NULL, updated_at = $4
      WHERE id = $1 AND status IN ('queued', 'building') RETURNING ${COLUMNS}`,
    [id, builder, filesTotal, now],
  );
  if (r.rows[0]) await tx.query('DELETE FROM export_chunks WHERE export_id = $1', [id]);
  return r.rows[0];
}

/** The export row the job reads first (by id alone: the job was queued for its account). */
export async function exportToBuild(db: Queryable, id: string): Promise<ExportRow | undefined> {
  const r = await db.query<ExportRow>(`SELECT ${COLUMNS} FROM exports WHERE id = $1`, [id]);
  return r.rows[0];
}

/** One piece of the ZIP and the progress, in one statement, only while `builder` still holds the export. */
export async function appendExportChunk(db: Queryable, id: string, builder: string, seq: number, bytes: Buffer, filesDone: number, now: Date): Promise<boolean> {
  const r = await db.query(
    `WITH held AS (UPDATE exports SET files_done = $5, updated_at = $6 WHERE id = $1 AND builder = $2 AND status = 'building' RETURNING id)
     INSERT INTO export_chunks (export_id, seq, bytes) SELECT id, $3, $4 FROM held`,
    [id, builder, seq, bytes, filesDone, now],
  );
  return r.rowCount > 0;
}

/** Ready: the counts are the files written (a note settled while the build ran may have added one). */
export async function finishExport(db: Queryable, id: string, builder: string, f: { filesDone: number; sizeBytes: number; sha256: string; expiresAt: Date }, now: Date): Promise<boolean> {
  const r = await db.query(
    `UPDATE exports SET status = 'ready', files_done = $3, files_total = $3, size_bytes = $4, sha256 = $5, builder = NULL, finished_at = $6, updated_at = $6, expires_at = $7
      WHERE id = $1 AND builder = $2 AND status = 'building'`,
    [id, builder, f.filesDone, f.sizeBytes, f.sha256, now, f.expiresAt],
  );
  return r.rowCount > 0;
}

/** The export fails for good: its chunks go, the reason stays (`builder` null: whoever holds it, or the last attempt). */
export async function failExport(tx: Queryable, id: string, builder: string | null, error: { code: string; message: string }, now: Date): Promise<boolean> {
  const r = await tx.query(
    `UPDATE exports SET status = 'failed', error = $3, builder = NULL, size_bytes = NULL, finished_at = $4, updated_at = $4
      WHERE id = $1 AND ($2::text IS NULL OR builder = $2) AND status IN ('queued', 'building')`,
    [id, builder, JSON.stringify(error), now],
  );
  if (r.rowCount > 0) await tx.query('DELETE FROM export_chunks WHERE export_id = $1', [id]);
  return r.rowCount > 0;
}

/** Piece `seq` of a ready export's ZIP (undefined past the last). */
export async function exportChunk(db: Queryable, id: string, seq: number): Promise<Buffer | undefined> {
  const r = await db.query<{ bytes: Buffer | Uint8Array }>('SELECT bytes FROM export_chunks WHERE export_id = $1 AND seq = $2', [id, seq]);
  const b = r.rows[0]?.bytes;
  return b === undefined ? undefined : Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
}

/**
 * Ready exports whose time is up, at most `limit`: their chunks deleted and the export `expired`, in one
 * statement; answers how many.
 */
export async function expireExports(db: Queryable, now: Date, limit: number): Promise<number> {
  const r = await db.query(
    `WITH due AS (SELECT id FROM exports WHERE status = 'ready' AND expires_at <= $1 ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED),
          gone AS (DELETE FROM export_chunks WHERE export_id IN (SELECT id FROM due))
     UPDATE exports SET status = 'expired', updated_at = $1 WHERE id IN (SELECT id FROM due)`,
    [now, limit],
  );
  return r.rowCount ?? 0;
}
