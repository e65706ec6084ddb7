import { authorizeNfseJob } from '../../documents/nfse/services/authorize-nfse.js';
import type { AuthorityDeps } from '../../documents/notes/services/note-family.js';
import type { Job } from '../../infra/queue/queue.js';
import type { JobHandler } from '../../infra/queue/runner.js';

/** Job `nfse.authorize`: POST the stored DPS to Sefin Nacional, looking the DPS Id up before any resend. */
export const nfseAuthorize = (deps: AuthorityDeps): JobHandler =>
  (job, { workerId }) => authorizeNfseJob(deps, job as Job<{ noteId: string }>, workerId);
