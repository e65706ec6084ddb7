import type { Queryable } from '../../infra/storage/db.js';
import { planChanges, type PlanChangeRow } from '../../infra/storage/repositories/billing-repository.js';
import { DEFAULT_PLAN, isPlanId, type PlanId } from './plans.js';

/**
 * The plan in force at `at`: the latest change in effect by then (an upgrade is in effect from its
 * request, a downgrade from the end of the period it was asked in), else the free plan. One rule for
 * the subscription, the quota and the invoice of any past period, whenever its job runs. Pure.
 */
export function planAt(changes: readonly PlanChangeRow[], at: Date): PlanId {
  let plan: PlanId = DEFAULT_PLAN;
  for (const c of changes) {
    if (c.canceled_at || c.effective_at.getTime() > at.getTime()) continue;
    if (isPlanId(c.to_plan)) plan = c.to_plan;
  }
  return plan;
}

/** A downgrade asked for and not yet in effect, if any. */
export function pendingChange(changes: readonly PlanChangeRow[], now: Date): PlanChangeRow | undefined {
  return changes.find((c) => !c.canceled_at && c.effective_at.getTime() > now.getTime());
}

export async function accountPlanAt(db: Queryable, accountId: string, at: Date): Promise<PlanId> {
  return planAt(await planChanges(db, accountId), at);
}
