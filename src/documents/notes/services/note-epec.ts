import type { Note, NoteEpec } from '../domain/note.js';
import { sliceAll, textOf } from '../../../fiscal/sefaz/xml-slice.js';
import { recordEvent } from '../../../infra/storage/repositories/outbox-repository.js';
import { addHistory, updateNoteIf } from '../storage/note-repository.js';
import type { AuthorityDeps, NoteFamily } from './note-family.js';
import { noteSettled } from './note-settled.js';

/**
 * Keeps a note's registered EPEC (tpEmis 4: the NF-e's at the Ambiente Nacional, docs/fiscal/epec.md; SP's NFC-e at
 * SP's own EPEC service, docs/fiscal/offline-contingency.md#epec-sp) with its protocol, its history line and the event
 * `<object>.epec_registered`, in one statement, while the note still has the status it was read with: from then on
 * its DANFE prints with the EPEC. The note as it now stands; undefined when it moved on meanwhile.
 */
export async function recordNoteEpec(
  deps: Pick<AuthorityDeps, 'db' | 'clock' | 'config'>,
  family: Pick<NoteFamily, 'object' | 'present'>,
  note: Note,
  epec: { protocol: string; registered_at: string; proc_xml: string },
  line: { code: string; message: string },
): Promise<Note | undefined> {
  const now = deps.clock.now();
  const after: Note = { ...note, epec, updated_at: now };
  const row = await deps.db.transaction(async (tx) => {
    const updated = await updateNoteIf(tx, note.id, note.status, { epec }, now);
    if (!updated) return undefined;
    await addHistory(tx, note.id, { type: 'epec_registered', at: now, code: line.code, message: line.message, protocolo: epec.protocol });
    await recordEvent(tx, { accountId: note.account_id, type: `${family.object}.epec_registered`, subjectType: family.object, subjectId: note.id, data: family.present(after, deps.config.publicBaseUrl), at: now });
    return after;
  });
  if (row) noteSettled.emit(note.id);
  return row;
}

/**
 * The EPEC (tpEvento 110140) among the events of a consultation's answer (procEventoNFe, NT 2014.001 5.6):
 * its protocol and registration time read from the retEvento, the procEventoNFe kept as given.
 */
export function epecOfConsultation(events: readonly string[]): Required<{ [K in keyof NoteEpec]: string }> | null {
  for (const proc of events) {
    const ret = sliceAll(proc, 'retEvento')[0]?.inner ?? '';
    if (textOf(ret, 'tpEvento') !== '110140' && !proc.includes('<tpEvento>110140</tpEvento>')) continue;
    const protocol = textOf(ret, 'nProt');
    const registeredAt = textOf(ret, 'dhRegEvento');
    if (protocol && registeredAt) return { protocol, registered_at: registeredAt, proc_xml: proc };
  }
  return null;
}
