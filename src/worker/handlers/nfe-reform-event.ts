import { reformEventJob } from '../../documents/nfe/services/reform-event-nfe.js';
import type { AuthorityDeps } from '../../documents/notes/services/note-family.js';
import { typedHandler } from '../../infra/queue/job-payload.js';
import type { JobHandler } from '../../infra/queue/runner.js';

/** Job `nfe.reform_event`: send an NT 2025.002-RTC issuer event (112110, 112120, 112130, 112140, 112150) to the issuer's authority. */
export const nfeReformEvent = (deps: AuthorityDeps): JobHandler => typedHandler({ eventId: 'string' }, (job) => reformEventJob(deps, job));
