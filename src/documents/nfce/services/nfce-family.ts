import { cancellationDeadline, cancellationWindowMinutes } from '../domain/cancel-window.js';
import type { NoteFamily } from '../../notes/services/note-family.js';
import { AUTHORIZE_JOB, CANCEL_JOB, CONTINGENCY_VOID_JOB, NFCE_MODEL } from './nfce-deps.js';
import { presentNfce } from './present-nfce.js';

/** The NFC-e as the shared note use cases (documents/notes) see it. */
export const NFCE_FAMILY: NoteFamily = {
  model: NFCE_MODEL,
  object: 'nfce',
  label: 'NFC-e',
  jobs: { authorize: AUTHORIZE_JOB, cancel: CANCEL_JOB, contingencyRejected: CONTINGENCY_VOID_JOB },
  // docs/fiscal/sefaz-services.md#authorization-request-and-answer: NFC-e lots of one note are processed synchronously everywhere.
  synchronous: () => true,
  present: presentNfce,
  cancellation: {
    deadline: cancellationDeadline,
    windowText: (uf) => `${cancellationWindowMinutes(uf)} minutes`,
    pastIt: 'Past it, the sale must be reversed with a return (devolução) NF-e.',
  },
};
