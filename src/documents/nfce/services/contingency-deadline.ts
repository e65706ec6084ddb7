import type { Note, NoteContingency } from '../../notes/domain/note.js';
import { addHistory, getNoteForWork, updateNoteIf } from '../../notes/storage/note-repository.js';
import { recordEvent } from '../../../infra/storage/repositories/outbox-repository.js';
import type { AuthorityDeps } from '../../notes/services/note-family.js';
import { NFCE_FAMILY } from './nfce-family.js';

/** How long before its deadline a contingency note still not transmitted raises the alarm. */
export const DEADLINE_WARNING_MS = 2 * 3600_000;

/**
 * A contingency NFC-e the authority still has not taken, two hours from its transmission deadline
 * (docs/fiscal/offline-contingency.md: 24 hours): once, the event `nfce.contingency_deadline` (a webhook and a notification)
 * and a history line. Called by the transmission job each time the authority fails it, so it needs no
 * timer of its own: while the authority is down that job runs at least once a minute.
 */
export async function warnNearDeadline(deps: Pick<AuthorityDeps, 'db' | 'clock' | 'config'>, note: Note): Promise<void> {
  const c = note.contingency;
  const now = deps.clock.now();
  if (note.status !== 'contingency' || !c || c.deadline_warned_at || Date.parse(c.deadline_at) - now.getTime() > DEADLINE_WARNING_MS) return;
  await deps.db.transaction(async (tx) => {
    const locked = await getNoteForWork(tx, note.id, true);
    if (!locked?.contingency || locked.status !== 'contingency' || locked.contingency.deadline_warned_at) return;
    const contingency: NoteContingency = { ...locked.contingency, deadline_warned_at: now.toISOString() };
    const row = await updateNoteIf(tx, note.id, 'contingency', { contingency }, now);
    if (!row) return;
    await addHistory(tx, note.id, {
      type: 'contingency_deadline_near',
      at: now,
      code: null,
      message: `not yet accepted by the authority; the transmission deadline is ${contingency.deadline_at}`,
    });
    await recordEvent(tx, { accountId: note.account_id, type: 'nfce.contingency_deadline', subjectType: 'nfce', subjectId: note.id, data: NFCE_FAMILY.present(row, deps.config.publicBaseUrl), at: now });
  });
}
