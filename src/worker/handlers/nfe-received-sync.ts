import { receivedSweepJob, receivedSyncJob } from '../../documents/nfe/services/sync-received.js';
import type { AuthorityDeps } from '../../documents/notes/services/note-family.js';
import type { Job } from '../../infra/queue/queue.js';
import type { JobHandler } from '../../infra/queue/runner.js';

/** Job `nfe.received-sync`: download an issuer's received documents by NSU, within the one-hour rule. */
export const nfeReceivedSync = (deps: AuthorityDeps): JobHandler => (job) => receivedSyncJob(deps, job as Job<{ issuerId: string }>);

/** Job `nfe.received-sweep`: hourly, queue the download of every issuer whose next one is due. */
export const nfeReceivedSweep = (deps: AuthorityDeps): JobHandler => (job) => receivedSweepJob(deps, job as Job<{ hour: string }>);
