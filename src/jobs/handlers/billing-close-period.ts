import { closePeriodJob } from '../../platform/billing/invoices.js';
import type { Ports } from '../../platform/ports/ports.js';
import type { Job } from '../queue.js';
import type { JobHandler } from '../runner.js';

/** Job `billing.close-period`: the month's invoices when a billing period ends (then the next close is queued). */
export const billingClosePeriod = (deps: Pick<Ports, 'db' | 'clock' | 'config' | 'wakeWorker'>): JobHandler =>
  (job) => closePeriodJob(deps, job as Job<{ period: string }>);
