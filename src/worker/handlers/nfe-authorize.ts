import { authorizeNoteJob } from '../../documents/notes/services/authorize-note.js';
import type { AuthorityDeps } from '../../documents/notes/services/note-family.js';
import { NFE_FAMILY } from '../../documents/nfe/services/nfe-family.js';
import { typedHandler } from '../../infra/queue/job-payload.js';
import type { JobHandler } from '../../infra/queue/runner.js';

/** Job `nfe.authorize`: send a stored NF-e (synchronous lot, or receipt polling), consulting before any resend. */
export const nfeAuthorize = (deps: AuthorityDeps): JobHandler =>
  typedHandler({ noteId: 'string' }, (job, { workerId }) => authorizeNoteJob(deps, NFE_FAMILY, job, workerId));
