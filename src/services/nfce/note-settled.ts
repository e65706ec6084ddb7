import { EventEmitter } from 'node:events';
import type { Queryable } from '../../storage/db.js';

/** In-process signal that a note reached a final state, so `Prefer: wait` answers at once. */
export const noteSettled = new EventEmitter();
noteSettled.setMaxListeners(0);

const POLL_MS = 100;

/**
 * Waits until the note leaves `processing` or `ms` pass. The worker may run in another process, so
 * the in-process signal is backed by polling.
 */
export async function waitUntilSettled(db: Queryable, noteId: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const r = await db.query<{ status: string }>('SELECT status FROM nfce_notes WHERE id = $1', [noteId]);
    const left = deadline - Date.now();
    if (r.rows[0]?.status !== 'processing' || left <= 0) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        noteSettled.off(noteId, done);
        resolve();
      };
      const timer = setTimeout(done, Math.min(POLL_MS, left));
      noteSettled.once(noteId, done);
    });
  }
}
