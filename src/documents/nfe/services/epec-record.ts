import type { Note } from '../../notes/domain/note.js';
import type { AuthorityDeps } from '../../notes/services/note-family.js';
import { recordNoteEpec } from '../../notes/services/note-epec.js';
import { presentNfe } from './present-nfe.js';

export { epecOfConsultation } from '../../notes/services/note-epec.js';

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
  if (note.status !== 'processing') return undefined;
  return recordNoteEpec(deps, { object: 'nfe', present: presentNfe }, note, epec, line);
}
