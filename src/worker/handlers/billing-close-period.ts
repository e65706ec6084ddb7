import { chargeInvoiceJob } from '../../platform/billing/charge-invoice.js';
import { closePeriodJob } from '../../platform/billing/invoices.js';
import { trialEndJob } from '../../platform/billing/trial.js';
import type { Ports } from '../../platform/ports/ports.js';
import type { Job } from '../../infra/queue/queue.js';
import type { JobHandler } from '../../infra/queue/runner.js';

/** Job `billing.close-period`: the month's invoices when a billing period ends (then the next close is queued). */
export const billingClosePeriod = (deps: Pick<Ports, 'db' | 'clock' | 'config' | 'wakeWorker'>): JobHandler =>
  (job) => closePeriodJob(deps, job as Job<{ period: string }>);

/** Job `billing.charge-invoice`: the payment provider's charge of a new invoice (its payment link). */
export const billingChargeInvoice = (deps: Pick<Ports, 'db' | 'clock' | 'config'>): JobHandler => {
  const run = chargeInvoiceJob(deps);
  return (job) => run(job as Job<{ invoiceId: string }>);
};

/** Job `billing.trial-end`: a trialing subscription becomes active when its trial ends. */
export const billingTrialEnd = (deps: Pick<Ports, 'db' | 'clock'>): JobHandler =>
  (job) => trialEndJob(deps, job as Job<{ accountId: string; end: string }>);
