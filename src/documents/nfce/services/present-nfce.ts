import type { NfceRow } from '../../../platform/storage/repositories/nfce-repository.js';
import { presentNoteCore } from '../../notes/services/present-note.js';

/** The NFC-e record of the API: the fields every note has (its QR code URL among the links). */
export function presentNfce(row: NfceRow, baseUrl: string) {
  return presentNoteCore(row, baseUrl, 'nfce');
}

export type NfceView = ReturnType<typeof presentNfce>;
