import type { NoteRow } from '../../../platform/storage/repositories/note-repository.js';
import { presentNoteCore } from '../../notes/services/present-note.js';

/**
 * The NFC-e record of the API: the fields every note has (its QR code URL among the links), and for a
 * sale issued in offline contingency (issue 17) why, its transmission deadline and what became of the
 * normal-emission attempt it replaced.
 */
export function presentNfce(row: NoteRow, baseUrl: string) {
  const c = row.contingency ?? null;
  return {
    ...presentNoteCore(row, baseUrl, 'nfce'),
    contingency: c
      ? {
          reason: c.reason,
          entered_at: c.entered_at,
          deadline_at: c.deadline_at,
          transmitted_at: c.transmitted_at ?? null,
          first_attempt: c.first_attempt
            ? {
                serie: c.first_attempt.serie,
                number: c.first_attempt.number,
                access_key: c.first_attempt.access_key,
                outcome: c.first_attempt.outcome,
                protocolo: c.first_attempt.protocolo ?? null,
                settled_at: c.first_attempt.settled_at ?? null,
              }
            : null,
        }
      : null,
  };
}

export type NfceView = ReturnType<typeof presentNfce>;
