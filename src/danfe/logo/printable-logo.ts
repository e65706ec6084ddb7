// The logo a DANFE may draw, from the bytes stored for the issuer. A logo stored by an older version
// was checked only for its magic bytes, so every stored logo goes through the normalizer
// (off the event loop) before pdfkit sees it; the outcome is remembered by the bytes' digest, so
// that costs one decode per logo per process, and logos normalized by this process cost none.
import { createHash } from 'node:crypto';
import { normalizeLogoOffThread, type LogoOutcome } from './logo-pool.js';
import type { LogoImage } from './normalize-logo.js';

const REMEMBERED = 64;
const outcomes = new Map<string, LogoOutcome>();
const pending = new Map<string, Promise<LogoOutcome>>();

const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('base64');

function remember(key: string, outcome: LogoOutcome): void {
  outcomes.delete(key);
  outcomes.set(key, outcome);
  // Least recently used first: a Map iterates in insertion order.
  if (outcomes.size > REMEMBERED) outcomes.delete(outcomes.keys().next().value!);
}

/** A logo this process has just normalized: drawing it needs no second decode. */
export function rememberPrintableLogo(logo: LogoImage): void {
  remember(digest(logo.bytes), { ok: true, logo });
}

/** The stored logo in normal form, or why it cannot be printed. Throws LogoBusy under a flood. */
export async function printableLogo(bytes: Buffer): Promise<LogoOutcome> {
  const key = digest(bytes);
  const known = outcomes.get(key);
  if (known) {
    remember(key, known);
    return known;
  }
  let running = pending.get(key);
  if (!running) {
    running = normalizeLogoOffThread(bytes).finally(() => pending.delete(key));
    pending.set(key, running);
  }
  const outcome = await running;
  remember(key, outcome);
  return outcome;
}
