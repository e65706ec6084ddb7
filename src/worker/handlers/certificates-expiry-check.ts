import { certificateExpiryJob } from '../../platform/issuers/certificate-expiry.js';
import type { Ports } from '../../platform/ports/ports.js';
import { typedHandler } from '../../infra/queue/job-payload.js';
import type { JobHandler } from '../../infra/queue/runner.js';

/** Job `certificates.expiry-check`: the daily look for certificates 30/14/7/1 days from expiry. */
export const certificatesExpiryCheck = (deps: Pick<Ports, 'db' | 'clock' | 'notifications' | 'wakeWorker'>): JobHandler =>
  typedHandler({ day: 'string' }, (job) => certificateExpiryJob(deps, job));
