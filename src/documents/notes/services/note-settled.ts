import { EventEmitter } from 'node:events';
import type { Queryable } from '../../../infra/storage/db.js';

/**
 * In-process signal that a note changed state (`<id>` when authorization settles, `cancel:<id>`
 * when a cancellation does, `cce:<id>` when a correction letter does), so `Prefer: wait` and cancel answer at once.
 */
export const noteSettled = new EventEmitter();
noteSettled.setMaxListeners(0);

const POLL_MS = 100;

interface NoteState {
  status: string;
  cancellation: { status?: string } | null;
  corrections: { letters?: Array<{ status: string }> } | null;
}

async function waitFor(db: Queryable, noteId: string, signal: string, ms: number, done: (s: NoteState) => boolean): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const r = await db.query<NoteState>('SELECT status, cancellation, corrections FROM notes WHERE id = $1', [noteId]);
    const left = deadline - Date.now();
    if (!r.rows[0] || done(r.rows[0]) || left <= 0) return;
    // The worker may run in another process: the signal is a shortcut, polling the guarantee.
    await new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        noteSettled.off(signal, wake);
        resolve();
      };
      const timer = setTimeout(wake, Math.min(POLL_MS, left));
      noteSettled.once(signal, wake);
    });
  }
}

/** Waits until the note leaves `processing`, or `ms` pass. */
export function waitUntilSettled(db: Queryable, noteId: string, ms: number): Promise<void> {
  return waitFor(db, noteId, noteId, ms, (s) => s.status !== 'processing');
}

/** Waits until a requested cancellation is registered or refused, or `ms` pass. */
export function waitUntilCancellationSettled(db: Queryable, noteId: string, ms: number): Promise<void> {
  return waitFor(db, noteId, `cancel:${noteId}`, ms, (s) => s.cancellation?.status !== 'pending');
}

/** Waits until no correction letter of the note is pending (registered or refused), or `ms` pass. */
export function waitUntilCorrectionSettled(db: Queryable, noteId: string, ms: number): Promise<void> {
  return waitFor(db, noteId, `cce:${noteId}`, ms, (s) => !(s.corrections?.letters ?? []).some((l) => l.status === 'pending'));
}
