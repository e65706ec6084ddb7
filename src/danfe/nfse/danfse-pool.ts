// Runs the DANFSe rendering on worker threads (kernel/thread-pool.ts): at most DANFSE_WORKERS
// threads, each with a heap limit and a time limit per rendering (a thread past it is terminated),
// DANFSE_QUEUE renderings waiting at most (beyond: DanfseBusy). Threads start on demand, end after a
// while unused and never keep the process alive, so there is nothing to close at shutdown.
import { siblingWorker, ThreadPool } from '../../kernel/thread-pool.js';
import { DanfeInputError } from '../danfe-input.js';
import { DANFSE_QUEUE, DANFSE_TIMEOUT_MS, DANFSE_WORKER_HEAP_MB, DANFSE_WORKERS, DANFSE_XML_MAX_BYTES } from './danfse-limits.js';
import type { DanfseJob, DanfseReply } from './danfse-worker.js';
import type { DanfseOptions } from './render-danfse.js';

/** Too many DANFSe are being rendered right now; the caller answers 503 and asks for a retry. */
export class DanfseBusy extends Error {
  constructor() {
    super('too many DANFSe are being rendered right now');
    this.name = 'DanfseBusy';
  }
}

const pool = new ThreadPool({
  start: () => siblingWorker(import.meta.url, 'danfse-worker', { resourceLimits: { maxOldGenerationSizeMb: DANFSE_WORKER_HEAP_MB, maxYoungGenerationSizeMb: 32 } }),
  size: DANFSE_WORKERS,
  queue: DANFSE_QUEUE,
  busy: () => new DanfseBusy(),
});

/**
 * The DANFSe PDF of an authorized NFS-e XML, rendered off the event loop. Throws DanfeInputError for
 * a document that cannot make one (not an NFS-e, beyond the size bound, bad logo or colour),
 * DanfseBusy under a flood.
 */
export async function renderDanfse(xml: string, opts: DanfseOptions = {}): Promise<Buffer> {
  // Refused before it is copied to a thread.
  if (Buffer.byteLength(xml, 'utf8') > DANFSE_XML_MAX_BYTES) throw new DanfeInputError(`the XML has more than ${DANFSE_XML_MAX_BYTES} bytes`);
  const { logo, ...rest } = opts;
  const job: DanfseJob = { xml, ...rest, ...(logo ? { logo: new Uint8Array(logo) } : {}) };
  const outcome = await pool.run<DanfseReply>(job, { timeoutMs: DANFSE_TIMEOUT_MS, label: 'DANFSe' });
  if (outcome.kind === 'out-of-memory') throw new DanfeInputError(`the NFS-e needs more than ${DANFSE_WORKER_HEAP_MB} MB to render`);
  if (outcome.kind === 'timeout') throw new Error(`the DANFSe took more than ${DANFSE_TIMEOUT_MS / 1000} s to render; rendering abandoned`);
  const { reply } = outcome;
  if (reply.ok) return Buffer.from(reply.pdf.buffer, reply.pdf.byteOffset, reply.pdf.byteLength);
  if (reply.input) throw new DanfeInputError(reply.message);
  throw new Error(`DANFSe rendering failed: ${reply.message}`);
}
