import type { NoteContingency } from '../../notes/domain/note.js';
import type { Job } from '../../../infra/queue/queue.js';
import { addHistory, getNoteForWork, updateNoteIf } from '../../notes/storage/note-repository.js';
import type { AuthorityDeps } from '../../notes/services/note-family.js';
import { voidOneNumber } from './settle-first-attempt.js';

export { CONTINGENCY_VOID_JOB } from './nfce-deps.js';

/**
 * Job `nfce.contingency-void`: the authority refused an NFC-e issued in offline
 * contingency. Its number was printed and handed to the customer, so it never goes to another sale;
 * the authority did not book it either (a rejection books nothing), so it is voided (inutilization,
 * docs/fiscal/inutilizacao.md, docs/fiscal/offline-contingency.md) and the note says so. The first attempt, if any, is settled by its own job.
 */
export async function voidRejectedContingencyJob(deps: AuthorityDeps, job: Job<{ noteId: string }>): Promise<void> {
  const note = await getNoteForWork(deps.db, job.payload.noteId);
  if (!note || note.status !== 'rejected' || !note.contingency || note.contingency.number_voided_at) return;
  // A point of sale's own offline note (POST /v1/nfce/offline) is its to correct and send again under the
  // same number (docs/fiscal/offline-contingency.md#sefaz-guidance), or to void itself (POST /v1/issuers/:id/inutilization): its series is not the gateway's.
  if (note.contingency.source === 'client') return;
  const protocolo = await voidOneNumber(
    deps, note, note.serie, note.number,
    `NFC-e emitida em contingencia rejeitada pela SEFAZ (${note.rejection?.code ?? 'sem codigo'}); numero nao utilizado`,
    job.attempts,
  );
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const locked = await getNoteForWork(tx, note.id, true);
    if (!locked?.contingency || locked.contingency.number_voided_at) return;
    const contingency: NoteContingency = { ...locked.contingency, number_voided_at: now.toISOString() };
    await updateNoteIf(tx, note.id, 'rejected', { contingency }, now);
    await addHistory(tx, note.id, { type: 'contingency_number_voided', at: now, code: null, message: `number ${note.number} voided (inutilization ${protocolo ?? ''})`.trim(), protocolo });
  });
}
