import type { AuthorityDeps } from '../../documents/notes/services/note-family.js';
import { voidRejectedContingencyJob } from '../../documents/nfce/services/void-rejected-contingency.js';
import { typedHandler } from '../../infra/queue/job-payload.js';
import type { JobHandler } from '../../infra/queue/runner.js';

/** Job `nfce.contingency-void`: void the number of a contingency NFC-e the authority refused. */
export const nfceContingencyVoid = (deps: AuthorityDeps): JobHandler => typedHandler({ noteId: 'string' }, (job) => voidRejectedContingencyJob(deps, job));
