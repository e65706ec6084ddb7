import { chargeInvoiceJob } from '../../platform/billing/charge-invoice.js';
import { closePeriodJob } from '../../platform/billing/invoices.js';
import { trialEndJob } from '../../platform/billing/trial.js';
import type { Ports } from '../../platform/ports/ports.js';
import { typedHandler } from '../../infra/queue/job-payload.js';
import type { JobHandler } from '../../infra/queue/runner.js';

/** Job `billing.close-period`: the month's invoices when a billing period ends (then the next close is queued). */
export const billingClosePeriod = (deps: Pick<Ports, 'db' | 'clock' | 'config' | 'wakeWorker'>): JobHandler =>
  typedHandler({ period: 'string' }, (job) => closePeriodJob(deps, job));

/** Job `billing.charge-invoice`: the payment provider's charge of a new invoice (its payment link). */
export const billingChargeInvoice = (deps: Pick<Ports, 'db' | 'clock' | 'config'>): JobHandler => {
  const run = chargeInvoiceJob(deps);
  return typedHandler({ invoiceId: 'string' }, (job) => run(job));
};

/** Job `billing.trial-end`: a trialing subscription becomes active when its trial ends. */
export const billingTrialEnd = (deps: Pick<Ports, 'db' | 'clock'>): JobHandler =>
  typedHandler({ accountId: 'string', end: 'string' }, (job) => trialEndJob(deps, job));
