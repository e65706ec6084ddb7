// Worker thread entry (receipt-pool.ts): reads one NFC-e's XML and draws its DANFE as a PDF, ESC/POS
// bytes or an HTML page per message. Parsing 990 items and laying them out is CPU-bound work that
// never runs on the event loop.
import { parentPort } from 'node:worker_threads';
import { renderDanfeEscpos } from '../escpos/render-escpos.js';
import { renderDanfeHtml } from '../html/render-html.js';
import { danfeInputFromXml } from '../danfe-input-from-xml.js';
import { DanfeInputError, DanfeNotAuthorizedError, type DanfeCancellation } from '../danfe-input.js';
import { RECEIPT_LIMITS } from './receipt-limits.js';
import { renderDanfeNfce } from '../render-danfe-nfce.js';

export type ReceiptForm = 'pdf' | 'escpos' | 'html';

export interface ReceiptJob {
  form: ReceiptForm;
  xml: string;
  width: 80 | 58;
  settings?: { logo?: Uint8Array; primaryColor?: string; footerText?: string };
  cancellation?: DanfeCancellation;
  epec?: { protocol: string; registeredAt: string };
}

/** `unauthorized`: DanfeNotAuthorizedError (409); `input`: DanfeInputError (422); else a failure. */
export type ReceiptReply = { ok: true; bytes: Uint8Array } | { ok: false; input: boolean; unauthorized?: { tpEmis: number }; message: string };

async function draw(job: ReceiptJob): Promise<Buffer> {
  const { logo, ...rest } = job.settings ?? {};
  const settings = job.settings ? { ...rest, ...(logo ? { logo: Buffer.from(logo.buffer, logo.byteOffset, logo.byteLength) } : {}) } : undefined;
  const input = danfeInputFromXml(job.xml, { ...(settings ? { settings } : {}), ...(job.cancellation ? { cancellation: job.cancellation } : {}), ...(job.epec ? { epec: job.epec } : {}) });
  if (input.items.length > RECEIPT_LIMITS.items) throw new DanfeInputError(`the note has ${input.items.length} items; an NFC-e holds at most ${RECEIPT_LIMITS.items}`);
  if (job.form === 'pdf') return renderDanfeNfce(input, { width: job.width });
  if (job.form === 'escpos') return renderDanfeEscpos(input, { width: job.width });
  return Buffer.from(await renderDanfeHtml(input, { width: job.width }), 'utf8');
}

async function reply(job: ReceiptJob): Promise<ReceiptReply> {
  try {
    const bytes = await draw(job);
    // Transferred to the caller without a copy, unless the bytes share a pooled ArrayBuffer.
    const own = bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength;
    return { ok: true, bytes: own ? new Uint8Array(bytes.buffer) : new Uint8Array(bytes) };
  } catch (err) {
    const message = (err instanceof Error ? err.message : String(err)).slice(0, 500);
    if (err instanceof DanfeNotAuthorizedError) return { ok: false, input: false, unauthorized: { tpEmis: err.tpEmis }, message };
    return { ok: false, input: err instanceof DanfeInputError, message };
  }
}

parentPort!.on('message', (job: ReceiptJob) => {
  void reply(job).then((r) => parentPort!.postMessage(r, r.ok ? [r.bytes.buffer as ArrayBuffer] : []));
});
