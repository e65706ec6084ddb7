import { certificateExpiryJob } from '../../platform/issuers/certificate-expiry.js';
import type { Ports } from '../../platform/ports/ports.js';
import type { Job } from '../../infra/queue/queue.js';
import type { JobHandler } from '../../infra/queue/runner.js';

/** Job `certificates.expiry-check`: the daily look for certificates 30/14/7/1 days from expiry. */
export const certificatesExpiryCheck = (deps: Pick<Ports, 'db' | 'clock' | 'notifications' | 'wakeWorker'>): JobHandler =>
  (job) => certificateExpiryJob(deps, job as Job<{ day: string }>);
