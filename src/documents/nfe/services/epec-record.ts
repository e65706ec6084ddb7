import type { Note, NoteEpec } from '../../notes/domain/note.js';
import { sliceAll, textOf } from '../../../fiscal/sefaz/xml-slice.js';
import { recordEvent } from '../../../infra/storage/repositories/outbox-repository.js';
import { addHistory, updateNoteIf } from '../../notes/storage/note-repository.js';
import type { AuthorityDeps } from '../../notes/services/note-family.js';
import { noteSettled } from '../../notes/services/note-settled.js';
import { presentNfe } from './present-nfe.js';

/** The webhook event of a registered EPEC: the DANFE can now be printed with its protocol (docs/guides/nfe.md). */
export const EPEC_REGISTERED_EVENT = 'nfe.epec_registered';

/**
 * Keeps a note's EPEC with its protocol, its history line and the event `nfe.epec_registered`, in one
 * statement: from then on the DANFE prints with the EPEC's protocol (NT 2014.001 3.1a C). The note as it now
 * stands; undefined when it is no longer processing (settled meanwhile).
 */
export async function recordEpec(
  deps: Pick<AuthorityDeps, 'db' | 'clock' | 'config'>,
  note: Note,
  epec: { protocol: string; registered_at: string; proc_xml: string },
  line: { code: string; message: string },
): Promise<Note | undefined> {
  const now = deps.clock.now();
  const after: Note = { ...note, epec, updated_at: now };
  const row = await deps.db.transaction(async (tx) => {
    const updated = await updateNoteIf(tx, note.id, 'processing', { epec }, now);
    if (!updated) return undefined;
    await addHistory(tx, note.id, { type: 'epec_registered', at: now, code: line.code, message: line.message, protocolo: epec.protocol });
    await recordEvent(tx, { accountId: note.account_id, type: EPEC_REGISTERED_EVENT, subjectType: 'nfe', subjectId: note.id, data: presentNfe(after, deps.config.publicBaseUrl), at: now });
    return after;
  });
  if (row) noteSettled.emit(note.id);
  return row;
}

/**
 * The EPEC (tpEvento 110140) among the events of a consultation's answer (procEventoNFe, NT 2014.001 5.6):
 * its protocol and registration time read from the AN's retEvento, the procEventoNFe kept as given.
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
