import { Readable } from 'node:stream';
import { ApiError, notFound } from '../../kernel/errors.js';
import { newId } from '../../kernel/ids.js';
import { page } from '../../kernel/page.js';
import { enqueueJob } from '../../infra/queue/queue.js';
import type { Ports } from '../ports/ports.js';
import { findIssuer } from '../../infra/storage/repositories/issuer-repository.js';
import { exportChunk, getExport, insertExport, listExports, type ExportKind, type ExportRow } from './storage/export-repository.js';
import { EXPORT_JOB, EXPORT_KEEP_DAYS, EXPORT_KINDS, EXPORT_MAX_ATTEMPTS, monthProblem } from './export-rules.js';

/** An export as GET /v1/exports/:id shows it. */
export function presentExport(e: ExportRow) {
  return {
    id: e.id,
    object: 'export' as const,
    issuer_id: e.issuer_id,
    month: e.month,
    kinds: e.kinds,
    status: e.status,
    progress: { files_done: e.files_done, files_total: e.files_total },
    size_bytes: e.size_bytes === null ? null : Number(e.size_bytes),
    sha256: e.sha256,
    error: e.error,
    download_url: e.status === 'ready' ? `/v1/exports/${e.id}/download` : null,
    created_at: e.created_at.toISOString(),
    finished_at: e.finished_at?.toISOString() ?? null,
    /** A ready export's ZIP is kept until then; past it the export is `expired` (ask again). */
    expires_at: e.expires_at?.toISOString() ?? null,
  };
}

/**
 * POST /v1/exports: a month of one issuer's XMLs, built in the background (job exports.build). The
 * issuer must be the account's (another account's is 404, as for every record); the export and its
 * job are written in one transaction.
 */
export async function requestExport(
  deps: Pick<Ports, 'db' | 'clock' | 'wakeWorker'>,
  accountId: string,
  requestedBy: string | null,
  body: { issuer_id: string; month: string; kinds?: ExportKind[] },
) {
  const now = deps.clock.now();
  const problem = monthProblem(body.month, now);
  if (problem) throw new ApiError('validation_error', `month ${problem}`, [{ field: 'month', message: problem }]);
  const kinds = body.kinds && body.kinds.length > 0 ? EXPORT_KINDS.filter((k) => body.kinds!.includes(k)) : [...EXPORT_KINDS];
  if (!(await findIssuer(deps.db, accountId, body.issuer_id))) throw notFound('Issuer');
  const row = await deps.db.transaction(async (tx) => {
    const e = await insertExport(tx, { id: newId('exp'), account_id: accountId, issuer_id: body.issuer_id, month: body.month, kinds, requested_by: requestedBy, created_at: now });
    await enqueueJob(tx, EXPORT_JOB, { exportId: e.id }, { runAt: now, now, maxAttempts: EXPORT_MAX_ATTEMPTS, dedupeKey: `export:${e.id}` });
    return e;
  });
  deps.wakeWorker();
  return presentExport(row);
}

export async function showExport(deps: Pick<Ports, 'db'>, accountId: string, id: string) {
  const e = await getExport(deps.db, accountId, id);
  if (!e) throw notFound('Export');
  return presentExport(e);
}

export async function listAccountExports(deps: Pick<Ports, 'db'>, accountId: string, q: { limit?: number; starting_after?: string; issuer_id?: string }) {
  const limit = q.limit ?? 20;
  const before = q.starting_after ? await getExport(deps.db, accountId, q.starting_after) : undefined;
  if (q.starting_after && !before) throw notFound('Export');
  const rows = await listExports(deps.db, accountId, { issuerId: q.issuer_id, limit: limit + 1, before });
  const p = page(rows, limit);
  return { data: p.data.map(presentExport), has_more: p.has_more };
}

/**
 * GET /v1/exports/:id/download: the ZIP read piece by piece from storage as the client takes it (a
 * stream, so a large month never sits whole in memory); 409 until the export is ready.
 */
export async function downloadExport(deps: Pick<Ports, 'db'>, accountId: string, id: string): Promise<{ fileName: string; size: number; sha256: string; body: Readable }> {
  const e = await getExport(deps.db, accountId, id);
  if (!e) throw notFound('Export');
  if (e.status === 'expired') {
    throw new ApiError('invalid_state', `Export ${id} expired on ${e.expires_at?.toISOString() ?? 'its date'}: a ZIP is kept ${EXPORT_KEEP_DAYS} days; ask for it again with POST /v1/exports`);
  }
  if (e.status !== 'ready') throw new ApiError('invalid_state', `Export ${id} is ${e.status}; it can be downloaded once ready`);
  async function* pieces() {
    for (let seq = 0; ; seq++) {
      const bytes = await exportChunk(deps.db, e!.id, seq);
      if (!bytes) return;
      yield bytes;
    }
  }
  return { fileName: `xml-${e.month}-${e.issuer_id}-${e.id}.zip`, size: Number(e.size_bytes), sha256: e.sha256!, body: Readable.from(pieces(), { objectMode: false }) };
}
