import { ApiError } from '../../kernel/errors.js';
import type { Queryable } from '../storage/db.js';
import { billingAccount, countLimited } from '../storage/repositories/billing-repository.js';
import { accountPlanAt } from './account-plan.js';
import { PLANS } from './plans.js';

const NOUN = { issuers: ['issuer', 'issuers'], team_members: ['team member (invites pending included)', 'team members (invites pending included)'] } as const;

/**
 * Issue 19 item 1: the plan's limits on issuers and team members, checked before one more is made
 * (402 plan_limit_reached, naming the limit and the way up). What exists keeps working after a
 * downgrade: only new ones are refused. Sandbox accounts are never limited, as they are never billed.
 * Two creations at the same instant may both pass the count: a limit of the plan, not of the law.
 */
export async function assertPlanAllows(
  db: Queryable,
  accountId: string,
  what: 'issuers' | 'team_members',
  now: Date,
  exceptEmailKey?: string,
): Promise<void> {
  const account = await billingAccount(db, accountId);
  if (account?.environment !== 'production') return;
  const plan = PLANS[await accountPlanAt(db, accountId, now)];
  const limit = plan.limits[what];
  if (limit === null) return;
  const used = await countLimited(db, accountId, what, now, exceptEmailKey);
  if (used < limit) return;
  const noun = NOUN[what][limit === 1 ? 0 : 1];
  throw new ApiError(
    'plan_limit_reached',
    `The ${plan.name} plan allows ${limit} ${noun}; upgrade the plan (POST /v1/billing/upgrade) to add more`,
    [{ field: `plan.limits.${what}`, message: `${used} of ${limit} in use on the ${plan.name} plan` }],
  );
}
