import { correctionJob } from '../../documents/nfe/services/correct-nfe.js';
import type { AuthorityDeps } from '../../documents/notes/services/note-family.js';
import { typedHandler } from '../../infra/queue/job-payload.js';
import type { JobHandler } from '../../infra/queue/runner.js';

/** Job `nfe.cce`: send a correction letter (110110) to the issuer's authority. */
export const nfeCce = (deps: AuthorityDeps): JobHandler => typedHandler({ eventId: 'string' }, (job) => correctionJob(deps, job));
