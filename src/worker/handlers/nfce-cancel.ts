import { cancelNoteJob } from '../../documents/notes/services/cancel-note.js';
import type { AuthorityDeps } from '../../documents/notes/services/note-family.js';
import { NFCE_FAMILY } from '../../documents/nfce/services/nfce-family.js';
import { typedHandler } from '../../infra/queue/job-payload.js';
import type { JobHandler } from '../../infra/queue/runner.js';

/** Job `nfce.cancel`: send a requested cancellation event (110111) to the authority. */
export const nfceCancel = (deps: AuthorityDeps): JobHandler => typedHandler({ noteId: 'string' }, (job) => cancelNoteJob(deps, NFCE_FAMILY, job));
