import { correctionJob } from '../../documents/nfe/services/correct-nfe.js';
import type { AuthorityDeps } from '../../documents/notes/services/note-family.js';
import type { Job } from '../../infra/queue/queue.js';
import type { JobHandler } from '../../infra/queue/runner.js';

/** Job `nfe.cce`: send a correction letter (110110) to the issuer's authority. */
export const nfeCce = (deps: AuthorityDeps): JobHandler => (job) => correctionJob(deps, job as Job<{ eventId: string }>);
