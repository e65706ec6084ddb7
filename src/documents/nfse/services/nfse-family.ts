import type { NoteFamily } from '../../notes/services/note-family.js';
import { NFSE_AUTHORIZE_JOB, NFSE_CANCEL_JOB, NFSE_MODEL } from './nfse-deps.js';
import { presentNfse } from './present-nfse.js';

/**
 * The NFS-e as the shared note use cases (documents/notes) see it: emission, reading, settling. Its
 * authorization and cancellation talk REST to Sefin Nacional (authorize-nfse.ts, cancel-nfse.ts), not
 * SOAP, so the 4.00 parts of the family (synchronous lots, the 110111 window) do not apply: the
 * cancellation deadline is each municipality's (Anexo II E0822) and only Sefin knows it.
 */
export const NFSE_FAMILY: NoteFamily = {
  model: NFSE_MODEL,
  object: 'nfse',
  label: 'NFS-e',
  jobs: { authorize: NFSE_AUTHORIZE_JOB, cancel: NFSE_CANCEL_JOB },
  synchronous: () => true,
  present: presentNfse,
  cancellation: {
    deadline: () => new Date(8.64e15),
    windowText: () => 'the deadline its municipality sets',
    pastIt: 'Past it, ask the municipality for a fiscal analysis of the cancellation (event 101103).',
  },
};
