import { cancelNoteJob } from '../../documents/notes/services/cancel-note.js';
import type { AuthorityDeps } from '../../documents/notes/services/note-family.js';
import { NFE_FAMILY } from '../../documents/nfe/services/nfe-family.js';
import { typedHandler } from '../../infra/queue/job-payload.js';
import type { JobHandler } from '../../infra/queue/runner.js';

/** Job `nfe.cancel`: send a requested NF-e cancellation event (110111) to the authority. */
export const nfeCancel = (deps: AuthorityDeps): JobHandler => typedHandler({ noteId: 'string' }, (job) => cancelNoteJob(deps, NFE_FAMILY, job));
