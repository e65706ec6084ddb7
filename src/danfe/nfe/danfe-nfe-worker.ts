// Worker thread entry (danfe-nfe-pool.ts): renders one DANFE NF-e per message. Parsing the XML and
// laying out up to 990 items is CPU-bound work that never runs on the event loop.
import { parentPort } from 'node:worker_threads';
import { DanfeInputError, type DanfeCancellation } from '../danfe-input.js';
import { renderDanfeNfe } from './render-danfe-nfe.js';

export interface DanfeNfeJob {
  xml: string;
  settings?: { logo?: Uint8Array; primaryColor?: string; footerText?: string };
  cancellation?: DanfeCancellation;
  epec?: { protocol: string; registeredAt: string };
}

export type DanfeNfeReply = { ok: true; pdf: Uint8Array } | { ok: false; input: boolean; message: string };

async function reply(job: DanfeNfeJob): Promise<DanfeNfeReply> {
  try {
    const { logo, ...rest } = job.settings ?? {};
    const settings = job.settings ? { ...rest, ...(logo ? { logo: Buffer.from(logo.buffer, logo.byteOffset, logo.byteLength) } : {}) } : undefined;
    const pdf = await renderDanfeNfe(job.xml, { ...(settings ? { settings } : {}), ...(job.cancellation ? { cancellation: job.cancellation } : {}), ...(job.epec ? { epec: job.epec } : {}) });
    // Transferred to the caller without a copy, unless the bytes share a pooled ArrayBuffer.
    const own = pdf.byteOffset === 0 && pdf.buffer.byteLength === pdf.byteLength;
    return { ok: true, pdf: own ? new Uint8Array(pdf.buffer) : new Uint8Array(pdf) };
  } catch (err) {
    const message = (err instanceof Error ? err.message : String(err)).slice(0, 500);
    return { ok: false, input: err instanceof DanfeInputError, message };
  }
}

parentPort!.on('message', (job: DanfeNfeJob) => {
  void reply(job).then((r) => parentPort!.postMessage(r, r.ok ? [r.pdf.buffer as ArrayBuffer] : []));
});
