import type { Queryable } from '../../infra/storage/db.js';
import { usageByIssuer, usageTotals } from '../../infra/storage/repositories/billing-repository.js';
import { PLANS, USAGE_KINDS, type PlanId, type UsageKind } from './plans.js';

export interface UsageLine {
  kind: UsageKind;
  included: number;
  used: number;
  overage: number;
  overage_unit_cents: number;
  overage_cents: number;
}

/** Used, included and overage per type for a plan; overage in cents at the plan's prices. Pure. */
export function usageLines(plan: PlanId, used: Partial<Record<string, number>>, billed: boolean): UsageLine[] {
  return USAGE_KINDS.map((kind) => {
    const count = used[kind] ?? 0;
    const overage = Math.max(0, count - PLANS[plan].included[kind]);
    const unit = billed ? PLANS[plan].overage_cents[kind] : 0;
    return { kind, included: PLANS[plan].included[kind], used: count, overage, overage_unit_cents: unit, overage_cents: overage * unit };
  });
}

/** GET /v1/billing/usage: a period's counts by type (the metered aggregate) and by issuer (the usage rows). */
export async function readUsage(db: Queryable, accountId: string, period: string) {
  const [totals, perIssuer] = [await usageTotals(db, accountId, period), await usageByIssuer(db, accountId, period)];
  const byIssuer = new Map<string, Record<UsageKind, number>>();
  for (const r of perIssuer) {
    const entry = byIssuer.get(r.issuer_id) ?? { nfce: 0, nfe: 0, nfse: 0, events: 0 };
    entry[r.kind as UsageKind] = Number(r.count);
    byIssuer.set(r.issuer_id, entry);
  }
  return {
    object: 'billing_usage' as const,
    period,
    totals: Object.fromEntries(USAGE_KINDS.map((k) => [k, totals[k] ?? 0])) as Record<UsageKind, number>,
    by_issuer: [...byIssuer.entries()].map(([issuer_id, counts]) => ({ issuer_id, ...counts })),
  };
}
