import { authorizeNoteJob } from '../../documents/notes/services/authorize-note.js';
import type { AuthorityDeps } from '../../documents/notes/services/note-family.js';
import { NFCE_FAMILY } from '../../documents/nfce/services/nfce-family.js';
import type { Job } from '../queue.js';
import type { JobHandler } from '../runner.js';

/** Job `nfce.authorize`: send a stored NFC-e to the authority, consulting before any resend. */
export const nfceAuthorize = (deps: AuthorityDeps): JobHandler =>
  (job, { workerId }) => authorizeNoteJob(deps, NFCE_FAMILY, job as Job<{ noteId: string }>, workerId);
