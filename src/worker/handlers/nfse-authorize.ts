import { authorizeNfseJob } from '../../documents/nfse/services/authorize-nfse.js';
import type { AuthorityDeps } from '../../documents/notes/services/note-family.js';
import { typedHandler } from '../../infra/queue/job-payload.js';
import type { JobHandler } from '../../infra/queue/runner.js';

/** Job `nfse.authorize`: POST the stored DPS to Sefin Nacional, looking the DPS Id up before any resend. */
export const nfseAuthorize = (deps: AuthorityDeps): JobHandler =>
  typedHandler({ noteId: 'string' }, (job, { workerId }) => authorizeNfseJob(deps, job, workerId));
