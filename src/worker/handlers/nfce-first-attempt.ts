import type { AuthorityDeps } from '../../documents/notes/services/note-family.js';
import { settleFirstAttemptJob } from '../../documents/nfce/services/settle-first-attempt.js';
import { typedHandler } from '../../infra/queue/job-payload.js';
import type { JobHandler } from '../../infra/queue/runner.js';

/** Job `nfce.first-attempt`: cancel by substitution (110112) or void the number of a sale's attempt replaced in contingency. */
export const nfceFirstAttempt = (deps: AuthorityDeps): JobHandler => typedHandler({ noteId: 'string' }, (job) => settleFirstAttemptJob(deps, job));
