import { cancelNfseJob } from '../../documents/nfse/services/cancel-nfse.js';
import type { AuthorityDeps } from '../../documents/notes/services/note-family.js';
import { typedHandler } from '../../infra/queue/job-payload.js';
import type { JobHandler } from '../../infra/queue/runner.js';

/** Job `nfse.cancel`: register the stored e101101 request at Sefin Nacional (looked up first after a lost answer). */
export const nfseCancel = (deps: AuthorityDeps): JobHandler =>
  typedHandler({ noteId: 'string' }, (job) => cancelNfseJob(deps, job));
