import type { Note } from '../../notes/domain/note.js';
import { enqueueJob } from '../../../infra/queue/queue.js';
import { addHistory, updateNoteIf } from '../../notes/storage/note-repository.js';
import type { AuthorityDeps } from '../../notes/services/note-family.js';
import { noteSettled } from '../../notes/services/note-settled.js';
import type { BuiltNfe } from '../domain/build-nfe.js';
import { NFE_AUTHORIZE_JOB } from './nfe-deps.js';

/**
 * A processing NF-e issued again under its number for another authorizer (switch-to-svc.ts, switch-back-to-state.ts,
 * docs/fiscal/svc.md): the new document, its history line and the job that sends it, in one transaction, and only
 * while the note is still processing. The job's key names the new access key: job keys are single-use, and a note
 * may switch more than once. True when the note was switched.
 */
export async function reissueNfe(
  deps: Pick<AuthorityDeps, 'db' | 'wakeWorker'>,
  note: Note,
  built: BuiltNfe,
  schemaPackage: NonNullable<Note['schema_package']>,
  line: { type: string; message: string },
  now: Date,
): Promise<boolean> {
  const switched = await deps.db.transaction(async (tx) => {
    const row = await updateNoteIf(tx, note.id, 'processing', {
      access_key: built.accessKey, tp_emis: built.tpEmis, dh_emi: built.dhEmi, signed_xml: built.xml, digest_value: built.digestValue, schema_package: schemaPackage,
    }, now);
    if (!row) return false;
    await addHistory(tx, note.id, { type: line.type, at: now, code: String(built.tpEmis), message: line.message });
    await enqueueJob(tx, NFE_AUTHORIZE_JOB, { noteId: note.id }, { runAt: now, now, dedupeKey: `${NFE_AUTHORIZE_JOB}:${note.id}:${built.accessKey}`, maxAttempts: 10_000 });
    return true;
  });
  if (switched) {
    noteSettled.emit(note.id);
    deps.wakeWorker();
  }
  return switched;
}
