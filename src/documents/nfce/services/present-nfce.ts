import type { NoteRow } from '../../../platform/storage/repositories/note-repository.js';
import { presentNoteCore } from '../../notes/services/present-note.js';

/** The NFC-e record of the API: the fields every note has (its QR code URL among the links). */
export function presentNfce(row: NoteRow, baseUrl: string) {
  return presentNoteCore(row, baseUrl, 'nfce');
}

export type NfceView = ReturnType<typeof presentNfce>;
