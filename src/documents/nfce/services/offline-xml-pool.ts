// Reads offline NFC-e XML on worker threads (kernel/thread-pool.ts): at most
// OFFLINE_XML_WORKERS threads, each with a heap limit and a time limit per document (a thread past
// it is ended and the document refused), OFFLINE_XML_QUEUE documents waiting (beyond: 503).
import { siblingWorker, ThreadPool } from '../../../kernel/thread-pool.js';
import { ApiError } from '../../../kernel/errors.js';
import { OFFLINE_XML_RULES } from '../domain/offline-nfce.js';
import type { OfflineSchemaVerdict, OfflineXmlReading } from './offline-xml-reading.js';
import type { OfflineXmlJob, OfflineXmlReply } from './offline-xml-worker.js';

/**
 * A 990-item NFC-e (0.7 MB) reads and verifies in about 1.5 s (xml-crypto's XPath is most of it, 4.5 s
 * on a cold thread); a document that takes longer than this is refused, not waited for.
 */
export const OFFLINE_XML_TIMEOUT_MS = 30_000;
export const OFFLINE_XML_WORKER_HEAP_MB = 128;
export const OFFLINE_XML_WORKERS = 1;
export const OFFLINE_XML_QUEUE = 16;
/**
 * A thread unused this long ends and gives its memory back (its heap, its modules, the XSDs it
 * compiled); a burst of uploads after an outage keeps it busy, and a new one takes 2 s to compile the XSDs.
 */
export const OFFLINE_XML_IDLE_MS = 15_000;

const pool = new ThreadPool({
  start: () => siblingWorker(import.meta.url, 'offline-xml-worker', { resourceLimits: { maxOldGenerationSizeMb: OFFLINE_XML_WORKER_HEAP_MB, maxYoungGenerationSizeMb: 32 } }),
  size: OFFLINE_XML_WORKERS,
  queue: OFFLINE_XML_QUEUE,
  idleMs: OFFLINE_XML_IDLE_MS,
  busy: () => new ApiError('service_unavailable', 'Too many offline NFC-e are being read right now; try again in a few seconds', undefined, { 'Retry-After': '2' }),
});

/** The reading of readOfflineXml, done on a thread; the size bound is checked before the text is copied there. */
export async function readOfflineXmlOffThread(xml: string, o: { verify?: boolean } = {}): Promise<OfflineXmlReading> {
  const bytes = Buffer.byteLength(xml, 'utf8');
  if (bytes > OFFLINE_XML_RULES.maxBytes) return { ok: false, problem: `has ${bytes} bytes, more than the ${OFFLINE_XML_RULES.maxBytes} a document may have` };
  const reply = await onThread({ kind: 'read', xml, verify: o.verify ?? true });
  if (reply === 'out-of-memory') return { ok: false, problem: `needs more than ${OFFLINE_XML_WORKER_HEAP_MB} MB to read` };
  if (reply === 'timeout') return { ok: false, problem: `took more than ${OFFLINE_XML_TIMEOUT_MS / 1000} s to read` };
  if (!('read' in reply)) throw new Error('the offline NFC-e worker answered another job');
  return reply.read;
}

/** offlineSchemaOf on a thread: the document as the gateway will keep it (already read and bounded). */
export async function offlineSchemaOffThread(xml: string): Promise<OfflineSchemaVerdict> {
  const reply = await onThread({ kind: 'schema', xml });
  if (reply === 'out-of-memory' || reply === 'timeout') return { errors: [{ message: `the XSD check ${reply === 'timeout' ? 'took too long' : 'ran out of memory'}`, line: 0 }] };
  if (!('schema' in reply)) throw new Error('the offline NFC-e worker answered another job');
  return reply.schema;
}

async function onThread(job: OfflineXmlJob): Promise<Exclude<OfflineXmlReply, { failed: string }> | 'out-of-memory' | 'timeout'> {
  const outcome = await pool.run<OfflineXmlReply>(job, { timeoutMs: OFFLINE_XML_TIMEOUT_MS, label: 'offline NFC-e XML' });
  if (outcome.kind !== 'reply') return outcome.kind;
  if ('failed' in outcome.reply) throw new Error(`reading the offline NFC-e failed: ${outcome.reply.failed}`);
  return outcome.reply;
}
