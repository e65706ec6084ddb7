import { enqueueJob, type Job } from '../../infra/queue/queue.js';
import { RetryLater } from '../../infra/queue/runner.js';
import type { Ports } from '../ports/ports.js';
import type { Queryable } from '../../infra/storage/db.js';
import { getSubscription, setSubscriptionStatus, type PlanChangeRow } from '../../infra/storage/repositories/billing-repository.js';
import { PLANS, type PlanId } from './plans.js';

// The trial (docs/guides/billing.md "Trial"): a production account's first move from the free plan to a paid one
// starts BILLING_TRIAL_DAYS (14) of that plan at no charge. The plan, its allowance and its limits
// are in force at once; what the trial changes is only what the invoices charge: nothing for the
// days before its end (plan price, prorations, overage of a period that ends within it), the plan
// from its end on. Its end is stored on the plan change that started it, so an invoice computed
// again from the plan changes, whenever its job runs, gives the same lines.

export const TRIAL_END_JOB = 'billing.trial-end';
const DAY_MS = 86_400_000;

export interface Trial {
  start: Date;
  end: Date;
}

/** The account's trial, if it ever had one (one per account: only the first paid plan starts it). */
export function trialOf(changes: readonly PlanChangeRow[]): Trial | null {
  const c = changes.find((x) => x.trial_ends_at && !x.canceled_at);
  return c?.trial_ends_at ? { start: c.effective_at, end: c.trial_ends_at } : null;
}

export const inTrial = (trial: Trial | null, at: Date): trial is Trial =>
  trial !== null && at.getTime() >= trial.start.getTime() && at.getTime() < trial.end.getTime();

const paid = (plan: string) => (PLANS[plan as PlanId]?.monthly_price_cents ?? 0) > 0;

/**
 * The end of the trial a change from `from` to `to` at `now` starts, or null: only for a billed
 * account, only from an unpaid plan to a paid one, only if no change ever went to a paid plan.
 */
export function trialEndFor(changes: readonly PlanChangeRow[], from: PlanId, to: PlanId, now: Date, days: number, billed: boolean): Date | null {
  if (!billed || days <= 0 || paid(from) || !paid(to)) return null;
  if (changes.some((c) => paid(c.to_plan) || c.trial_ends_at)) return null;
  return new Date(now.getTime() + days * DAY_MS);
}

/** The moment an upgrade at `at` starts costing: at once, or the trial's end while one runs. */
export const billedFrom = (trial: Trial | null, at: Date): Date => (inTrial(trial, at) ? trial.end : at);

/** Queues the trial's end (once: the key names the account and the moment). */
export async function scheduleTrialEnd(db: Queryable, accountId: string, end: Date, now: Date): Promise<void> {
  await enqueueJob(db, TRIAL_END_JOB, { accountId, end: end.toISOString() }, { runAt: end, now, dedupeKey: `billing-trial-end:${accountId}:${end.toISOString()}`, maxAttempts: 100 });
}

/**
 * Job `billing.trial-end`: a trialing subscription becomes active when its trial ends. A status
 * another event set meanwhile (past_due, a closed account) is left alone.
 */
export async function trialEndJob(deps: Pick<Ports, 'db' | 'clock'>, job: Job<{ accountId: string; end: string }>): Promise<void> {
  const now = deps.clock.now();
  if (now.getTime() < Date.parse(job.payload.end)) throw new RetryLater(Date.parse(job.payload.end) - now.getTime(), 'the trial has not ended');
  await deps.db.transaction(async (tx) => {
    const sub = await getSubscription(tx, job.payload.accountId, true);
    if (sub?.status === 'trialing') await setSubscriptionStatus(tx, job.payload.accountId, 'active', null, now);
  });
}
