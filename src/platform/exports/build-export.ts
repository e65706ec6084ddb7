import { createHash } from 'node:crypto';
import { extendLease, type Job } from '../../infra/queue/queue.js';
import type { Ports } from '../ports/ports.js';
import { appendExportChunk, exportToBuild, failExport, finishExport, startExportBuild, type ExportRow } from './storage/export-repository.js';
import { exportFileCount } from './storage/export-sources.js';
import { exportFiles } from './export-files.js';
import { MANIFEST_HEADER, manifestLine } from './export-manifest.js';
import { EXPORT_CHUNK_BYTES, EXPORT_KEEP_DAYS, EXPORT_MAX_BYTES, modelsOf } from './export-rules.js';
import { ZipWriter } from './zip-writer.js';

/** The build lost its export to another claim of the job (its lease ran out): nothing more is written. */
class Superseded extends Error {}
class TooLarge extends Error {}

const LEASE_MS = 60_000;

/**
 * Job exports.build: the month's XMLs of the issuer into one ZIP (platform/exports/export-files.ts
 * says which files) plus manifest.csv, stored in 1 MiB pieces as they are made. Retryable: every
 * attempt takes the export over (its own claim, `job id:attempt`), drops the pieces of an earlier one
 * and starts again; a claim that was taken over stops at its next write. The lease is renewed at
 * each piece, so a long month is not taken over while it advances. Memory: one page of rows, one
 * piece, and the central directory and manifest lines (about 250 bytes per file).
 */
export async function buildExportJob(deps: Pick<Ports, 'db' | 'clock'>, job: Job<{ exportId: string }>, workerId: string): Promise<void> {
  const e = await exportToBuild(deps.db, job.payload.exportId);
  if (!e || e.status === 'ready' || e.status === 'failed') return;
  const builder = `${job.id}:${job.attempts}`;
  try {
    await build(deps, e, builder, job.id, workerId);
  } catch (err) {
    if (err instanceof Superseded) return;
    if (err instanceof TooLarge) {
      await failExport(deps.db, e.id, builder, { code: 'export_too_large', message: `The ZIP passed ${EXPORT_MAX_BYTES / 1024 ** 3} GiB: ask for fewer kinds (e.g. "kinds": ["nfce"])` }, deps.clock.now());
      return;
    }
    // The last attempt: the export says it failed rather than building forever.
    if (job.attempts >= job.max_attempts) {
      await failExport(deps.db, e.id, null, { code: 'export_failed', message: 'The export could not be built; ask for it again' }, deps.clock.now());
    }
    throw err;
  }
}

async function build(deps: Pick<Ports, 'db' | 'clock'>, e: ExportRow, builder: string, jobId: string, workerId: string): Promise<void> {
  const { notes, voids } = modelsOf(e.kinds);
  const scope = { issuerId: e.issuer_id, month: e.month };
  const total = await exportFileCount(deps.db, { ...scope, models: notes, events: e.kinds.includes('nfe'), voids, received: e.kinds.includes('received') });
  if (!(await startExportBuild(deps.db, e.id, builder, total + 1, deps.clock.now()))) return;

  const hash = createHash('sha256');
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let seq = 0;
  let done = 0;
  const flush = async () => {
    if (pendingBytes === 0) return;
    const now = deps.clock.now();
    if (!(await appendExportChunk(deps.db, e.id, builder, seq++, Buffer.concat(pending), done, now))) throw new Superseded();
    await extendLease(deps.db, jobId, workerId, new Date(now.getTime() + LEASE_MS));
    pending = [];
    pendingBytes = 0;
  };
  const zip = new ZipWriter(async (bytes) => {
    if (zip.size > EXPORT_MAX_BYTES) throw new TooLarge();
    hash.update(bytes);
    pending.push(bytes);
    pendingBytes += bytes.length;
    if (pendingBytes >= EXPORT_CHUNK_BYTES) await flush();
  }, e.created_at);

  const manifest: string[] = [MANIFEST_HEADER];
  for await (const file of exportFiles(deps.db, { ...scope, kinds: e.kinds, noteModels: notes, voidModels: voids })) {
    await zip.add(file.path, Buffer.from(file.xml, 'utf8'));
    manifest.push(manifestLine(file));
    done++;
  }
  await zip.add('manifest.csv', Buffer.from(manifest.join('\r\n') + '\r\n', 'utf8'));
  done++;
  await zip.finish();
  await flush();
  if (!(await finishExport(deps.db, e.id, builder, { filesDone: done, sizeBytes: zip.size, sha256: hash.digest('hex'), expiresAt: new Date(deps.clock.now().getTime() + EXPORT_KEEP_DAYS * 86_400_000) }, deps.clock.now()))) throw new Superseded();
}
