// The simulated authority's general signature checks on worker threads (kernel/thread-pool.ts): in the
// sandbox it shares the gateway's process, and DOM + xml-crypto on a 990-item NFC-e held that process
// for seconds. A document past the size or time bound, or one the thread cannot hold in its heap, is
// answered as the authority answers a signature it cannot verify (298), never a crash.
import { siblingWorker, ThreadPool } from '../kernel/thread-pool.js';
import type { PlainSignatureCheck, SignatureCheckJob, SignatureCheckReply } from './signature-check-messages.js';

/** A 990-item NFC-e (0.7 MB) verifies in about 3 s on a cold thread; the authority's own bound on a message is 1 MB (a batch: 500 KB each). */
export const SIGNATURE_CHECK_MAX_BYTES = 2 * 1_048_576;
export const SIGNATURE_CHECK_TIMEOUT_MS = 30_000;
export const SIGNATURE_CHECK_WORKERS = 1;
export const SIGNATURE_CHECK_QUEUE = 64;
export const SIGNATURE_CHECK_HEAP_MB = 128;

const pool = new ThreadPool({
  start: () => siblingWorker(import.meta.url, 'signature-check-worker', { resourceLimits: { maxOldGenerationSizeMb: SIGNATURE_CHECK_HEAP_MB, maxYoungGenerationSizeMb: 32 } }),
  size: SIGNATURE_CHECK_WORKERS,
  queue: SIGNATURE_CHECK_QUEUE,
  idleMs: 15_000,
  busy: () => new Error('the simulated authority is verifying too many signatures right now'),
});

const unverifiable = (reason: string): PlainSignatureCheck => ({ ok: false, cStat: 298, reason });

export async function generalVerdictOffThread(xml: string, signedElement: string): Promise<PlainSignatureCheck> {
  const bytes = Buffer.byteLength(xml, 'utf8');
  if (bytes > SIGNATURE_CHECK_MAX_BYTES) return unverifiable(`the document has ${bytes} bytes, more than ${SIGNATURE_CHECK_MAX_BYTES} to verify`);
  const job: SignatureCheckJob = { xml, signedElement };
  const outcome = await pool.run<SignatureCheckReply>(job, { timeoutMs: SIGNATURE_CHECK_TIMEOUT_MS, label: 'authority signature check' });
  if (outcome.kind === 'timeout') return unverifiable(`the signature took more than ${SIGNATURE_CHECK_TIMEOUT_MS / 1000} s to verify`);
  if (outcome.kind === 'out-of-memory') return unverifiable(`the signature needs more than ${SIGNATURE_CHECK_HEAP_MB} MB to verify`);
  if ('failed' in outcome.reply) return unverifiable(`the signature cannot be verified: ${outcome.reply.failed}`);
  return outcome.reply.verdict;
}
