import { nfeCancellationDeadline, nfeCancellationWindowHours } from '../domain/cancel-window.js';
import type { NoteFamily } from '../../notes/services/note-family.js';
import { NFE_AUTHORIZE_JOB, NFE_CANCEL_JOB, NFE_MODEL } from './nfe-deps.js';
import { presentNfe } from './present-nfe.js';
import { deliveryBlocksCancellation } from './delivery-cancel-block.js';

// docs/fiscal/sefaz-services.md#authorization-request-and-answer: NT 2025.001 makes synchronous processing mandatory for lots holding a single NF-e.
// A state listed here would still be sent asynchronous lots (indSinc=0); none is known today, and an
// authority that answers a synchronous lot with a receipt (103) is polled all the same.
const ASYNCHRONOUS_UFS: ReadonlySet<string> = new Set();

/** The NF-e as the shared note use cases (documents/notes) see it. */
export const NFE_FAMILY: NoteFamily = {
  model: NFE_MODEL,
  object: 'nfe',
  label: 'NF-e',
  jobs: { authorize: NFE_AUTHORIZE_JOB, cancel: NFE_CANCEL_JOB },
  synchronous: (uf) => !ASYNCHRONOUS_UFS.has(uf),
  present: presentNfe,
  cancellation: {
    deadline: nfeCancellationDeadline,
    windowText: (uf) => `${nfeCancellationWindowHours(uf)} hours`,
    blockedBy: deliveryBlocksCancellation,
    pastIt: 'Past it, undo the operation with a return (finalidade devolucao) or complementary NF-e, or correct what a correction letter may correct (POST /v1/nfe/:id/cce).',
  },
};
