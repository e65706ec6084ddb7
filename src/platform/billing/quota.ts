import { ApiError } from '../../kernel/errors.js';
import type { Ports } from '../ports/ports.js';
import type { Queryable } from '../../infra/storage/db.js';
import { queueAccountMail } from '../mail/mail-outbox.js';
import { announceNotifications, writeNotification } from '../notifications/notify.js';
import { recordEvent } from '../../infra/storage/repositories/outbox-repository.js';
import { billingAccount, claimQuotaAlert, getSubscription, usageTotals } from '../../infra/storage/repositories/billing-repository.js';
import { newId } from '../../kernel/ids.js';
import { accountPlanAt } from './account-plan.js';
import { periodOf } from './period.js';
import { PLANS, type PlanId, type UsageKind } from './plans.js';

const KIND_LABEL: Record<UsageKind, string> = { nfce: 'NFC-e', nfe: 'NF-e', nfse: 'NFS-e', events: 'events (CC-e, delivery, reform)' };

// What an account's sale needs to know of billing, remembered briefly per process: the hot path of a
// sale must not pay two more queries for accounts without a cap (nearly all). A cap turned on in
// another process is seen within this long; in this one at once (forgetBillingState).
const REMEMBER_MS = 5_000;
const remembered = new Map<string, { hardCap: boolean; plan: PlanId; sandbox: boolean; until: number }>();

export function forgetBillingState(accountId: string): void {
  remembered.delete(accountId);
}

async function billingState(db: Queryable, accountId: string, now: Date) {
  const hit = remembered.get(accountId);
  if (hit && hit.until > now.getTime() && hit.until - REMEMBER_MS <= now.getTime()) return hit;
  const [sub, plan, account] = [await getSubscription(db, accountId), await accountPlanAt(db, accountId, now), await billingAccount(db, accountId)];
  const state = { hardCap: sub?.hard_cap ?? false, plan, sandbox: account?.environment !== 'production', until: now.getTime() + REMEMBER_MS };
  if (remembered.size > 10_000) remembered.clear();
  remembered.set(accountId, state);
  return state;
}

/**
 * With a hard cap, a document past the plan's included ones is refused (402
 * quota_exceeded, naming the limit) BEFORE anything is numbered or sent to the authority. Without
 * one (the default) nothing is ever refused: the document is counted as overage, a checkout never
 * stops for billing. Documents already on their way (processing) are not counted until authorized,
 * so a burst may pass the cap by the documents in flight. The sandbox is never capped.
 */
export async function assertWithinQuota(deps: Pick<Ports, 'db' | 'clock'>, accountId: string, kind: UsageKind): Promise<void> {
  const now = deps.clock.now();
  const state = await billingState(deps.db, accountId, now);
  if (!state.hardCap || state.sandbox) return;
  const period = periodOf(now);
  const used = (await usageTotals(deps.db, accountId, period))[kind] ?? 0;
  const included = PLANS[state.plan].included[kind];
  if (used >= included) {
    throw new ApiError(
      'quota_exceeded',
      `The ${PLANS[state.plan].name} plan includes ${included} ${KIND_LABEL[kind]} per month and ${used} were authorized in ${period}; ` +
        'this account set a hard cap, so no more are issued this period. Upgrade (POST /v1/billing/upgrade) or turn the cap off (PATCH /v1/billing/subscription {"hard_cap": false}).',
      [{ field: `quota.${kind}`, message: `limit ${included} per month reached (${used} used in ${period})` }],
    );
  }
}

/**
 * After a metering statement counted the `count`th document of a period: when that uses up the
 * plan's included ones, billing.quota_reached (webhook), a notification and an e-mail, once per
 * account, period and type (the alert row is claimed in the same transaction). Run after the
 * authorization's own statement: should this fail or the process die between, the next document of
 * the period raises it.
 */
export async function quotaAfterMetering(
  deps: Pick<Ports, 'db' | 'clock' | 'wakeWorker'> & Partial<Pick<Ports, 'notifications'>>,
  m: { account_id: string; period: string; kind: UsageKind; count: number },
): Promise<boolean> {
  const now = deps.clock.now();
  const state = await billingState(deps.db, m.account_id, now);
  const plan = PLANS[state.plan];
  // Reached: the plan's last included document of the type (or, when that one was metered before a
  // plan change or by a process that died before raising it, any later one).
  if (state.sandbox || m.count < plan.included[m.kind]) return false;
  const data = { object: 'billing_quota', period: m.period, kind: m.kind, plan: plan.id, included: plan.included[m.kind], used: m.count, overage_cents_each: plan.overage_cents[m.kind], hard_cap: state.hardCap };
  const raised = await deps.db.transaction(async (tx) => {
    const eventId = newId('evt');
    if (!(await claimQuotaAlert(tx, { accountId: m.account_id, period: m.period, kind: m.kind, eventId, at: now }))) return false;
    await recordEvent(tx, { id: eventId, accountId: m.account_id, type: 'billing.quota_reached', subjectType: 'billing', subjectId: m.account_id, data, at: now });
    const title = `${plan.name} plan: ${KIND_LABEL[m.kind]} included this month used up`;
    const body = `${m.count} ${KIND_LABEL[m.kind]} authorized in ${m.period}: the ${plan.included[m.kind]} the plan includes are used up. ` +
      (state.hardCap ? 'Your hard cap refuses further ones this period.' : `Further ones are issued as usual and billed at ${plan.overage_cents[m.kind]} centavos each.`);
    const sourceKey = `billing-quota:${m.account_id}:${m.period}:${m.kind}`;
    await writeNotification(tx, { accountId: m.account_id, type: 'billing.quota_reached', title, body, data: { ...data, event_id: eventId }, sourceKey, at: now });
    await queueAccountMail(tx, { accountId: m.account_id, subject: title, text: body, sourceKey, at: now });
    return true;
  });
  if (raised) {
    deps.wakeWorker();
    if (deps.notifications) await announceNotifications({ notifications: deps.notifications }, [m.account_id]);
  }
  return raised;
}

