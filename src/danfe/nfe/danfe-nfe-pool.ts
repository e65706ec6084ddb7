// Runs renderDanfeNfe on worker threads so a 990-item note never holds the event loop: at most
// DANFE_NFE_WORKERS threads, each with a heap limit and a time limit per rendering (a thread past
// it is terminated), DANFE_NFE_QUEUE renderings waiting at most (beyond: DanfeNfeBusy). Threads
// start on demand, end after a while unused and never keep the process alive (kernel/thread-pool.ts).
import { siblingWorker, ThreadPool } from '../../kernel/thread-pool.js';
import { DanfeInputError } from '../danfe-input.js';
import type { DanfeNfeExtras } from './danfe-nfe-from-xml.js';
import { DANFE_NFE_LIMITS, DANFE_NFE_QUEUE, DANFE_NFE_TIMEOUT_MS, DANFE_NFE_WORKER_HEAP_MB, DANFE_NFE_WORKERS } from './danfe-nfe-limits.js';
import type { DanfeNfeJob, DanfeNfeReply } from './danfe-nfe-worker.js';

/** Too many DANFEs are being rendered right now; the caller answers 503 and asks for a retry. */
export class DanfeNfeBusy extends Error {
  constructor() {
    super('too many DANFE NF-e are being rendered right now');
    this.name = 'DanfeNfeBusy';
  }
}

const pool = new ThreadPool({
  start: () =>
    siblingWorker(import.meta.url, 'danfe-nfe-worker', { resourceLimits: { maxOldGenerationSizeMb: DANFE_NFE_WORKER_HEAP_MB, maxYoungGenerationSizeMb: 32 } }),
  size: DANFE_NFE_WORKERS,
  queue: DANFE_NFE_QUEUE,
  busy: () => new DanfeNfeBusy(),
});

/**
 * renderDanfeNfe off the event loop. Throws DanfeInputError for a note that cannot make a DANFE
 * (not model 55, not authorised, beyond the limits, bad logo), DanfeNfeBusy under a flood.
 */
export async function renderDanfeNfeOffThread(nfeProcXml: string, extras: DanfeNfeExtras = {}): Promise<Buffer> {
  // Refused before it is copied to a thread.
  if (Buffer.byteLength(nfeProcXml, 'utf8') > DANFE_NFE_LIMITS.xmlBytes) throw new DanfeInputError(`the XML has more than ${DANFE_NFE_LIMITS.xmlBytes} bytes`);
  const { logo, ...settings } = extras.settings ?? {};
  const job: DanfeNfeJob = {
    xml: nfeProcXml,
    ...(extras.settings ? { settings: { ...settings, ...(logo ? { logo: new Uint8Array(logo) } : {}) } } : {}),
    ...(extras.cancellation ? { cancellation: extras.cancellation } : {}),
    ...(extras.epec ? { epec: extras.epec } : {}),
  };
  const outcome = await pool.run<DanfeNfeReply>(job, { timeoutMs: DANFE_NFE_TIMEOUT_MS, label: 'DANFE NF-e' });
  if (outcome.kind === 'out-of-memory') throw new DanfeInputError(`the note needs more than ${DANFE_NFE_WORKER_HEAP_MB} MB to render`);
  if (outcome.kind === 'timeout') throw new Error(`the DANFE NF-e took more than ${DANFE_NFE_TIMEOUT_MS / 1000} s to render; rendering abandoned`);
  const { reply } = outcome;
  if (reply.ok) return Buffer.from(reply.pdf.buffer, reply.pdf.byteOffset, reply.pdf.byteLength);
  if (reply.input) throw new DanfeInputError(reply.message);
  throw new Error(`DANFE NF-e rendering failed: ${reply.message}`);
}
