import { receivedSweepJob, receivedSyncJob } from '../../documents/nfe/services/sync-received.js';
import type { AuthorityDeps } from '../../documents/notes/services/note-family.js';
import { typedHandler } from '../../infra/queue/job-payload.js';
import type { JobHandler } from '../../infra/queue/runner.js';

/** Job `nfe.received-sync`: download an issuer's received documents by NSU, within the one-hour rule. */
export const nfeReceivedSync = (deps: AuthorityDeps): JobHandler => typedHandler({ issuerId: 'string' }, (job) => receivedSyncJob(deps, job));

/** Job `nfe.received-sweep`: hourly, queue the download of every issuer whose next one is due. */
export const nfeReceivedSweep = (deps: AuthorityDeps): JobHandler => typedHandler({ hour: 'string' }, (job) => receivedSweepJob(deps, job));
