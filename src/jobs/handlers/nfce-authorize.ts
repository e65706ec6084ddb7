import { authorizeNfceJob } from '../../documents/nfce/services/authorize-nfce.js';
import type { AuthorityDeps } from '../../documents/nfce/services/nfce-deps.js';
import type { Job } from '../queue.js';
import type { JobHandler } from '../runner.js';

/** Job `nfce.authorize`: send a stored NFC-e to the authority, consulting before any resend. */
export const nfceAuthorize = (deps: AuthorityDeps): JobHandler =>
  (job, { workerId }) => authorizeNfceJob(deps, job as Job<{ noteId: string }>, workerId);
