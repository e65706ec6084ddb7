// Draws the DANFE NFC-e (PDF, ESC/POS, HTML) on worker threads, as the DANFE NF-e and the DANFSe are
// At most RECEIPT_WORKERS threads, each with a heap limit and a time limit per
// rendering (a thread past it is terminated), RECEIPT_QUEUE renderings waiting at most (beyond:
// DanfeNfceBusy). Threads start on demand, end after a while unused and never keep the process alive
// (kernel/thread-pool.ts). The XML is read in the thread too: at 990 items reading it alone takes
// about 100 ms, the PDF 300-400 ms more, the ESC/POS bytes 40-75 ms.
import { siblingWorker, ThreadPool } from '../../kernel/thread-pool.js';
import { DanfeInputError, DanfeNotAuthorizedError, type DanfeCancellation, type DanfeSettings } from '../danfe-input.js';
import { RECEIPT_LIMITS, RECEIPT_QUEUE, RECEIPT_TIMEOUT_MS, RECEIPT_WORKER_HEAP_MB, RECEIPT_WORKERS } from './receipt-limits.js';
import type { ReceiptForm, ReceiptJob, ReceiptReply } from './receipt-worker.js';

export type { ReceiptForm } from './receipt-worker.js';

/** Too many DANFE NFC-e are being rendered right now; the caller answers 503 and asks for a retry. */
export class DanfeNfceBusy extends Error {
  constructor() {
    super('too many DANFE NFC-e are being rendered right now');
    this.name = 'DanfeNfceBusy';
  }
}

const pool = new ThreadPool({
  start: () => siblingWorker(import.meta.url, 'receipt-worker', { resourceLimits: { maxOldGenerationSizeMb: RECEIPT_WORKER_HEAP_MB, maxYoungGenerationSizeMb: 32 } }),
  size: RECEIPT_WORKERS,
  queue: RECEIPT_QUEUE,
  busy: () => new DanfeNfceBusy(),
});

export interface ReceiptRequest {
  form: ReceiptForm;
  /** The nfeProc, or the signed NFe of a note in offline contingency. */
  xml: string;
  width: 80 | 58;
  settings?: DanfeSettings;
  cancellation?: DanfeCancellation;
  /** The registered EPEC of an SP NFC-e issued with tpEmis 4 (docs/fiscal/offline-contingency.md#epec-sp). */
  epec?: { protocol: string; registeredAt: string };
}

/**
 * The DANFE NFC-e drawn off the event loop: PDF or ESC/POS bytes, or the HTML page as UTF-8 bytes.
 * Throws DanfeInputError for a document that cannot make one (beyond the limits, a missing field, a bad
 * logo), DanfeNotAuthorizedError for one neither authorized nor issued in contingency, DanfeNfceBusy under a flood.
 */
export async function renderReceiptOffThread(r: ReceiptRequest): Promise<Buffer> {
  // Refused before it is copied to a thread.
  if (Buffer.byteLength(r.xml, 'utf8') > RECEIPT_LIMITS.xmlBytes) throw new DanfeInputError(`the XML has more than ${RECEIPT_LIMITS.xmlBytes} bytes`);
  const { logo, ...settings } = r.settings ?? {};
  const job: ReceiptJob = {
    form: r.form,
    xml: r.xml,
    width: r.width,
    ...(r.settings ? { settings: { ...settings, ...(logo ? { logo: new Uint8Array(logo) } : {}) } } : {}),
    ...(r.cancellation ? { cancellation: r.cancellation } : {}),
    ...(r.epec ? { epec: r.epec } : {}),
  };
  const outcome = await pool.run<ReceiptReply>(job, { timeoutMs: RECEIPT_TIMEOUT_MS, label: 'DANFE NFC-e' });
  if (outcome.kind === 'out-of-memory') throw new DanfeInputError(`the note needs more than ${RECEIPT_WORKER_HEAP_MB} MB to render`);
  if (outcome.kind === 'timeout') throw new Error(`the DANFE NFC-e took more than ${RECEIPT_TIMEOUT_MS / 1000} s to render; rendering abandoned`);
  const { reply } = outcome;
  if (reply.ok) return Buffer.from(reply.bytes.buffer, reply.bytes.byteOffset, reply.bytes.byteLength);
  if (reply.unauthorized) throw new DanfeNotAuthorizedError(reply.unauthorized.tpEmis);
  if (reply.input) throw new DanfeInputError(reply.message);
  throw new Error(`DANFE NFC-e rendering failed: ${reply.message}`);
}
