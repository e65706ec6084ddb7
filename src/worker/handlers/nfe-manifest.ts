import { manifestationJob } from '../../documents/nfe/services/manifest-received.js';
import type { AuthorityDeps } from '../../documents/notes/services/note-family.js';
import type { Job } from '../../infra/queue/queue.js';
import type { JobHandler } from '../../infra/queue/runner.js';

/** Job `nfe.manifest`: send the recipient's manifestation to the national environment. */
export const nfeManifest = (deps: AuthorityDeps): JobHandler => (job) => manifestationJob(deps, job as Job<{ eventId: string }>);
