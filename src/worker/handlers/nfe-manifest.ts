import { manifestationJob } from '../../documents/nfe/services/manifest-received.js';
import type { AuthorityDeps } from '../../documents/notes/services/note-family.js';
import { typedHandler } from '../../infra/queue/job-payload.js';
import type { JobHandler } from '../../infra/queue/runner.js';

/** Job `nfe.manifest`: send the recipient's manifestation to the national environment. */
export const nfeManifest = (deps: AuthorityDeps): JobHandler => typedHandler({ eventId: 'string' }, (job) => manifestationJob(deps, job));
