import { quotaAfterMetering } from '../../../platform/billing/quota.js';
import { settleNote, type Settlement } from '../storage/note-settlement.js';
import type { Ports } from '../../../platform/ports/ports.js';
import { noteSettled } from './note-settled.js';

/**
 * A note's settlement and what follows it, written once for every family: the one statement that
 * settles the note (fields, history, outbox event, usage row, follow-up job: note-settlement.ts),
 * then the waiters told (`Prefer: wait`, the cancellation's waiters under `cancel:<id>`), the
 * runner woken for the fan-out job the outbox trigger queued (it does not look by itself), and the
 * quota alert for a metered document. The alert runs after the settlement is durable: a failed
 * alert must not fail the settlement; the next document raises it again.
 */
export async function settleAndAnnounce(
  deps: AnnounceDeps,
  s: Settlement,
  waitersKey: string = s.noteId,
): Promise<Awaited<ReturnType<typeof settleNote>>> {
  const settled = await settleNote(deps.db, s);
  await announceSettled(deps, waitersKey, settled);
  return settled;
}

type AnnounceDeps = Pick<Ports, 'db' | 'clock' | 'wakeWorker'> & Partial<Pick<Ports, 'notifications'>>;

/** The tail alone, for a settlement written by its own transaction (the correction letter's). */
export async function announceSettled(
  deps: AnnounceDeps,
  waitersKey: string,
  settled: { fanout: boolean; metered: Parameters<typeof quotaAfterMetering>[1] | null | undefined },
): Promise<void> {
  noteSettled.emit(waitersKey);
  if (settled.fanout) deps.wakeWorker();
  if (settled.metered) await quotaAfterMetering(deps, settled.metered).catch(() => false);
}
