import { ApiError } from '../../kernel/errors.js';
import { newId } from '../../kernel/ids.js';
import type { Ports } from '../ports/ports.js';
import {
  billingAccount, cancelPendingChanges, getSubscription, insertPlanChange, lockSubscription, planChanges, setHardCap, setSubscriptionStatus, usageTotals,
} from '../../infra/storage/repositories/billing-repository.js';
import { pendingChange, planAt } from './account-plan.js';
import { periodBounds, periodOf } from './period.js';
import { isUpgrade, PLANS, type PlanId } from './plans.js';
import { prorate, type Proration } from './proration.js';
import { invoiceLines } from './invoices.js';
import { assertFitsPlan } from './plan-limits.js';
import { forgetBillingState } from './quota.js';
import { billedFrom, inTrial, scheduleTrialEnd, trialEndFor, trialOf } from './trial.js';
import { usageLines } from './usage.js';

type Deps = Pick<Ports, 'db' | 'clock' | 'config'>;

const graceEnd = (since: Date, days: number) => new Date(since.getTime() + days * 86_400_000);

const iso = (d: Date) => d.toISOString();

/**
 * GET /v1/billing/subscription: the plan in force, status, the current period, included and used
 * documents per type, the overage so far and the next invoice's estimate (plan + upgrades' proration
 * + overage so far). A sandbox account shows its plan with `sandbox: true` and nothing to pay: the
 * sandbox is never billed.
 */
export async function getSubscriptionView(deps: Deps, accountId: string) {
  const now = deps.clock.now();
  const account = await billingAccount(deps.db, accountId);
  if (!account) throw new ApiError('not_found', 'account not found');
  const sandbox = account.environment !== 'production';
  const sub = await getSubscription(deps.db, accountId);
  const changes = await planChanges(deps.db, accountId);
  const plan = planAt(changes, now);
  const period = periodBounds(periodOf(now));
  const used = await usageTotals(deps.db, accountId, period.id);
  const usage = usageLines(plan, used, !sandbox);
  const overage = usage.reduce((s, l) => s + l.overage_cents, 0);
  // The estimate is the invoice the close would make if nothing changed: the same lines (trial included).
  const lines = invoiceLines(changes, period, used);
  const sum = (kind: (k: string) => boolean) => lines.filter((l) => kind(l.kind)).reduce((s, l) => s + l.amount_cents, 0);
  const pending = pendingChange(changes, now);
  const trial = trialOf(changes);
  const stored = sub?.status ?? 'active';
  return {
    object: 'billing_subscription' as const,
    plan: PLANS[plan],
    // Past the trial's end the status reads active even before the trial-end job has run.
    status: account.closed_at ? ('canceled' as const) : stored === 'trialing' && !inTrial(trial, now) ? ('active' as const) : stored,
    trial_ends_at: inTrial(trial, now) ? iso(trial.end) : null,
    sandbox,
    hard_cap: sub?.hard_cap ?? false,
    current_period: { id: period.id, start: iso(period.start), end: iso(period.end) },
    usage,
    overage_cents: overage,
    pending_change: pending ? { to_plan: pending.to_plan as PlanId, effective_at: iso(pending.effective_at) } : null,
    next_invoice: sandbox
      ? null
      : {
          period: period.id,
          created_at: iso(period.end),
          plan_cents: sum((k) => k === 'plan'),
          proration_cents: sum((k) => k === 'proration'),
          overage_cents: sum((k) => k.startsWith('overage.')),
          estimated_total_cents: sum(() => true),
        },
    past_due_since: sub?.past_due_since ? iso(sub.past_due_since) : null,
    grace_ends_at: sub?.status === 'past_due' && sub.past_due_since ? iso(graceEnd(sub.past_due_since, deps.config.billing.graceDays)) : null,
  };
}

/** PATCH /v1/billing/subscription: the hard cap (the HTTP audit hook records the change). */
export async function updateSubscription(deps: Deps, accountId: string, input: { hard_cap: boolean }) {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await lockSubscription(tx, accountId, now);
    await setHardCap(tx, accountId, input.hard_cap, now);
  });
  forgetBillingState(accountId);
  return getSubscriptionView(deps, accountId);
}

export interface PlanChangeResult {
  id: string | null;
  object: 'billing_plan_change';
  preview: boolean;
  from_plan: PlanId;
  to_plan: PlanId;
  kind: 'upgrade' | 'downgrade';
  effective_at: string;
  /** The end of the trial this change starts or falls in (its days are not charged), else null. */
  trial_ends_at: string | null;
  /** The math: charged on the current period's invoice (upgrades; sandbox: shown, never billed). */
  proration: Proration & { billed: boolean };
}

/**
 * POST /v1/billing/upgrade: a change of plan. An upgrade (a dearer plan) takes
 * effect at once and charges the price difference for the rest of the period (proration.ts) on
 * this period's invoice; a downgrade takes effect at the period's end, with nothing refunded. A new
 * choice replaces a downgrade still pending. `preview` returns the same math and changes nothing.
 * One transaction, under the subscription row's lock: two changes at once are serialized.
 */
export async function changePlan(deps: Deps, accountId: string, input: { plan: string; preview?: boolean | undefined }): Promise<PlanChangeResult> {
  const to = input.plan as PlanId;
  if (!(to in PLANS)) throw new ApiError('validation_error', `plan must be one of ${Object.keys(PLANS).join(', ')}`, [{ field: 'plan', message: 'unknown plan' }]);
  const account = await billingAccount(deps.db, accountId);
  if (!account) throw new ApiError('not_found', 'account not found');
  if (account.closed_at) throw new ApiError('account_closed', 'This account was closed: its plan no longer changes');
  const billed = account.environment === 'production';
  const compute = async (db: Deps['db'] | Parameters<Parameters<Deps['db']['transaction']>[0]>[0]) => {
    const now = deps.clock.now();
    const changes = await planChanges(db, accountId);
    const from = planAt(changes, now);
    const pending = pendingChange(changes, now);
    if (from === to && !pending) throw new ApiError('invalid_state', `The account is already on the ${PLANS[to].name} plan`);
    const period = periodBounds(periodOf(now));
    // Choosing the plan in force again drops the pending downgrade: an `upgrade` back to it, nothing to prorate.
    const kind: 'upgrade' | 'downgrade' = from === to || isUpgrade(from, to) ? 'upgrade' : 'downgrade';
    // Past due beyond the grace period: no dearer plan until the overdue invoice is paid (sales go on).
    const sub = await getSubscription(db, accountId);
    if (kind === 'upgrade' && from !== to && sub?.status === 'past_due' && sub.past_due_since && now >= graceEnd(sub.past_due_since, deps.config.billing.graceDays)) {
      throw new ApiError('invalid_state', `An invoice has been overdue since ${iso(sub.past_due_since)}: pay it (GET /v1/billing/invoices, payment_url) before upgrading; documents keep being issued meanwhile`);
    }
    // Nothing beyond the smaller plan's limits is carried into it (plan-limits.ts).
    if (kind === 'downgrade' && billed) await assertFitsPlan(db, accountId, to, now);
    const effectiveAt = kind === 'upgrade' ? now : period.end;
    // The first paid plan starts a trial; an upgrade during one costs from its end (trial.ts).
    const trialEnd = kind === 'upgrade' && from !== to ? trialEndFor(changes, from, to, now, deps.config.billing.trialDays, billed) : null;
    const trial = trialOf(changes);
    const chargedFrom = trialEnd ?? billedFrom(trial, now);
    const proration = kind === 'upgrade' ? prorate(from, to, period, chargedFrom) : prorate(from, to, period, period.end);
    const trialEndsAt = trialEnd ?? (inTrial(trial, now) ? trial.end : null);
    return { now, from, kind, effectiveAt, period, trialEnd, trialEndsAt, proration: { ...proration, billed }, status: sub?.status };
  };
  if (input.preview) {
    const c = await compute(deps.db);
    return {
      id: null, object: 'billing_plan_change', preview: true, from_plan: c.from, to_plan: to, kind: c.kind, effective_at: iso(c.effectiveAt),
      trial_ends_at: c.trialEndsAt && iso(c.trialEndsAt), proration: c.proration,
    };
  }
  const result = await deps.db.transaction(async (tx) => {
    await lockSubscription(tx, accountId, deps.clock.now());
    const c = await compute(tx);
    // Back to the plan in force with a downgrade pending: the pending change is simply dropped.
    await cancelPendingChanges(tx, accountId, c.now);
    const id = newId('pch');
    if (c.from !== to) {
      await insertPlanChange(tx, {
        id, account_id: accountId, from_plan: c.from, to_plan: to, kind: c.kind, period: c.period.id,
        requested_at: c.now, effective_at: c.effectiveAt, proration_cents: billed ? c.proration.amount_cents : 0, trial_ends_at: c.trialEnd,
      });
    }
    if (c.trialEnd) {
      // past_due (an unpaid invoice of the free plan's overage) stays what it is; the trial's days are free either way.
      if ((c.status ?? 'active') === 'active') await setSubscriptionStatus(tx, accountId, 'trialing', null, c.now);
      await scheduleTrialEnd(tx, accountId, c.trialEnd, c.now);
    }
    return {
      id, object: 'billing_plan_change' as const, preview: false, from_plan: c.from, to_plan: to, kind: c.kind, effective_at: iso(c.effectiveAt),
      trial_ends_at: c.trialEndsAt && iso(c.trialEndsAt), proration: c.proration,
    };
  });
  forgetBillingState(accountId);
  return result;
}

