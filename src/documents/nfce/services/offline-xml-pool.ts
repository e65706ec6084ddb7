// Reads offline NFC-e XML on worker threads (kernel/thread-pool.ts, issue 28 item 12): at most
// OFFLINE_XML_WORKERS threads, each with a heap limit and a time limit per document (a thread past
// it is ended and the document refused), OFFLINE_XML_QUEUE documents waiting (beyond: 503).
import { siblingWorker, ThreadPool } from '../../../kernel/thread-pool.js';
import { ApiError } from '../../../kernel/errors.js';
import { OFFLINE_XML_RULES } from '../domain/offline-nfce.js';
import type { OfflineXmlReading } from './offline-xml-reading.js';
import type { OfflineXmlReply } from './offline-xml-worker.js';

/**
 * A 990-item NFC-e (0.7 MB) reads and verifies in about 1.5 s (xml-crypto's XPath is most of it, 4.5 s
 * on a cold thread); a document that takes longer than this is refused, not waited for.
 */
export const OFFLINE_XML_TIMEOUT_MS = 30_000;
export const OFFLINE_XML_WORKER_HEAP_MB = 128;
export const OFFLINE_XML_WORKERS = 1;
export const OFFLINE_XML_QUEUE = 16;

const pool = new ThreadPool({
  start: () => siblingWorker(import.meta.url, 'offline-xml-worker', { resourceLimits: { maxOldGenerationSizeMb: OFFLINE_XML_WORKER_HEAP_MB, maxYoungGenerationSizeMb: 32 } }),
  size: OFFLINE_XML_WORKERS,
  queue: OFFLINE_XML_QUEUE,
  busy: () => new ApiError('service_unavailable', 'Too many offline NFC-e are being read right now; try again in a few seconds', undefined, { 'Retry-After': '2' }),
});

/** The reading of readOfflineXml, done on a thread; the size bound is checked before the text is copied there. */
export async function readOfflineXmlOffThread(xml: string): Promise<OfflineXmlReading> {
  const bytes = Buffer.byteLength(xml, 'utf8');
  if (bytes > OFFLINE_XML_RULES.maxBytes) return { ok: false, problem: `has ${bytes} bytes, more than the ${OFFLINE_XML_RULES.maxBytes} a document may have` };
  const outcome = await pool.run<OfflineXmlReply>(xml, { timeoutMs: OFFLINE_XML_TIMEOUT_MS, label: 'offline NFC-e XML' });
  if (outcome.kind === 'out-of-memory') return { ok: false, problem: `needs more than ${OFFLINE_XML_WORKER_HEAP_MB} MB to read` };
  if (outcome.kind === 'timeout') return { ok: false, problem: `took more than ${OFFLINE_XML_TIMEOUT_MS / 1000} s to read` };
  if ('failed' in outcome.reply) throw new Error(`reading the offline NFC-e failed: ${outcome.reply.failed}`);
  return outcome.reply.read;
}
