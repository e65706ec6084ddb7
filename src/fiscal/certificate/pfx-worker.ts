// Worker-thread side of openPfx (pfx-worker-pool.ts): opens one PKCS#12 per message, off the
// gateway's event loop (a slow file must never hold every tenant's requests).
import { parentPort } from 'node:worker_threads';
import { CertificateError, parsePfx, type ParsedCertificate } from './pfx.js';
import type { CertificateErrorReason } from './certificate-error.js';

export interface PfxJob {
  id: number;
  pfx: Uint8Array;
  password: string;
}

/** What crosses back: everything but the KeyObject, which the main thread rebuilds from its PEM. */
export type PfxReply =
  | { id: number; ok: true; certificate: Omit<ParsedCertificate, 'privateKey'> }
  | { id: number; ok: false; reason: CertificateErrorReason | null; message: string };

const port = parentPort;
if (!port) throw new Error('pfx-worker runs as a worker thread (see pfx-worker-pool.ts)');

port.on('message', (job: PfxJob) => {
  let reply: PfxReply;
  try {
    const { privateKey: _key, ...certificate } = parsePfx(Buffer.from(job.pfx.buffer, job.pfx.byteOffset, job.pfx.byteLength), job.password);
    reply = { id: job.id, ok: true, certificate };
  } catch (err) {
    reply =
      err instanceof CertificateError
        ? { id: job.id, ok: false, reason: err.reason, message: err.message }
        : { id: job.id, ok: false, reason: null, message: err instanceof Error ? err.message : String(err) };
  }
  port.postMessage(reply);
});
port.postMessage({ ready: true });
