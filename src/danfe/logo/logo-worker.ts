// Worker thread entry (logo-pool.ts): normalizes logos (normalize-logo.ts) one message at a time.
// Decoding is CPU-bound (tens of ms for the largest allowed logo), so it never runs on the event
// loop.
import { parentPort } from 'node:worker_threads';
import { LogoRefusal } from './logo-refusal.js';
import { normalizeLogo } from './normalize-logo.js';

export type LogoWorkerReply =
  | { ok: true; type: 'image/png' | 'image/jpeg'; bytes: Uint8Array; width: number; height: number }
  | { ok: false; problem: string };

function reply(input: Uint8Array): LogoWorkerReply {
  try {
    const logo = normalizeLogo(Buffer.from(input.buffer, input.byteOffset, input.byteLength));
    return { ok: true, type: logo.type, bytes: logo.bytes, width: logo.width, height: logo.height };
  } catch (err) {
    if (err instanceof LogoRefusal) return { ok: false, problem: err.message };
    // A decoder that throws something else met input it cannot read: the logo's problem as well.
    const message = (err instanceof Error ? err.message : String(err)).replace(/[\r\n]+/g, ' ').slice(0, 120);
    return { ok: false, problem: `cannot be read (${message}); save it again as a baseline JPEG or a PNG` };
  }
}

parentPort!.on('message', (input: Uint8Array) => parentPort!.postMessage(reply(input)));
