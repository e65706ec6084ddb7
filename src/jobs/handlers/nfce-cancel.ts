import { cancelNfceJob } from '../../documents/nfce/services/cancel-nfce.js';
import type { AuthorityDeps } from '../../documents/nfce/services/nfce-deps.js';
import type { Job } from '../queue.js';
import type { JobHandler } from '../runner.js';

/** Job `nfce.cancel`: send a requested cancellation event (110111) to the authority. */
export const nfceCancel = (deps: AuthorityDeps): JobHandler => (job) => cancelNfceJob(deps, job as Job<{ noteId: string }>);
