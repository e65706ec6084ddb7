// Worker thread entry (danfse-pool.ts): renders one DANFSe per message, off the event loop.
import { parentPort } from 'node:worker_threads';
import { DanfeInputError } from '../danfe-input.js';
import { renderDanfseInThread } from './render-danfse.js';

export interface DanfseJob {
  xml: string;
  canceled?: boolean;
  canceledAt?: string;
  logo?: Uint8Array;
  primaryColor?: string;
}

export type DanfseReply = { ok: true; pdf: Uint8Array } | { ok: false; input: boolean; message: string };

async function reply(job: DanfseJob): Promise<DanfseReply> {
  try {
    const { xml, logo, ...rest } = job;
    const pdf = await renderDanfseInThread(xml, { ...rest, ...(logo ? { logo: Buffer.from(logo.buffer, logo.byteOffset, logo.byteLength) } : {}) });
    // Transferred to the caller without a copy, unless the bytes share a pooled ArrayBuffer.
    const own = pdf.byteOffset === 0 && pdf.buffer.byteLength === pdf.byteLength;
    return { ok: true, pdf: own ? new Uint8Array(pdf.buffer) : new Uint8Array(pdf) };
  } catch (err) {
    const message = (err instanceof Error ? err.message : String(err)).slice(0, 500);
    return { ok: false, input: err instanceof DanfeInputError, message };
  }
}

parentPort!.on('message', (job: DanfseJob) => {
  void reply(job).then((r) => parentPort!.postMessage(r, r.ok ? [r.pdf.buffer as ArrayBuffer] : []));
});
