import { ApiError } from '../../kernel/errors.js';
import type { Queryable } from '../../infra/storage/db.js';
import { billingAccount, countLimited, planChanges } from '../../infra/storage/repositories/billing-repository.js';
import { limitedHoldings } from './storage/plan-usage-repository.js';
import { pendingChange, planAt } from './account-plan.js';
import { PLANS, type Plan, type PlanId } from './plans.js';

const NOUN = { issuers: ['issuer', 'issuers'], team_members: ['team member (invites pending included)', 'team members (invites pending included)'] } as const;

/**
 * The plan's limits on issuers and team members, checked before one more is made
 * (402 plan_limit_reached, naming the limit and the way up). Sandbox accounts are never limited, as
 * they are never billed. Two creations at the same instant may both pass the count: a limit of the
 * plan, not of the law.
 *
 * While a downgrade waits for the period's end, the smaller plan's limit binds
 * already; otherwise what a downgrade was allowed for (assertFitsPlan) could grow before it takes
 * effect, and the smaller plan would start with more than it allows.
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
  const changes = await planChanges(db, accountId);
  const pending = pendingChange(changes, now);
  const plans = [PLANS[planAt(changes, now)], ...(pending && pending.to_plan in PLANS ? [PLANS[pending.to_plan as PlanId]] : [])];
  const binding = plans.reduce<{ plan: Plan; limit: number } | null>((b, p) => {
    const l = p.limits[what];
    return l !== null && (b === null || l < b.limit) ? { plan: p, limit: l } : b;
  }, null);
  if (binding === null) return;
  const { plan, limit } = binding;
  const used = await countLimited(db, accountId, what, now, exceptEmailKey);
  if (used < limit) return;
  const noun = NOUN[what][limit === 1 ? 0 : 1];
  const why = plan === plans[0] ? '' : ` (the downgrade to it at ${pending!.effective_at.toISOString()} is pending)`;
  throw new ApiError(
    'plan_limit_reached',
    `The ${plan.name} plan allows ${limit} ${noun}${why}; upgrade the plan (POST /v1/billing/upgrade) to add more`,
    [{ field: `plan.limits.${what}`, message: `${used} of ${limit} in use on the ${plan.name} plan` }],
  );
}

/**
 * Limits hold at every change of plan, not only when something is created. A
 * trial let an account make 5 issuers on a paid plan, downgrade to free during the trial, pay
 * nothing and keep all 5. So a downgrade (or its preview) to a plan whose limits the account
 * exceeds now is refused, 409 plan_limits_exceeded, naming what to remove first: pending invites
 * and members (not owners) by e-mail; issuers by id, to archive (archive-issuer.ts), as an issuer
 * is never deleted. The trial itself never falls back to a smaller
 * plan: when it ends the plan is charged (trial.ts), so the excess is never kept for free.
 */
export async function assertFitsPlan(db: Queryable, accountId: string, to: PlanId, now: Date): Promise<void> {
  const plan = PLANS[to];
  const held = await limitedHoldings(db, accountId, now);
  const details: { field: string; message: string }[] = [];
  const words: string[] = [];
  const issuers = plan.limits.issuers;
  if (issuers !== null && held.issuers.length > issuers) {
    const extra = held.issuers.slice(0, held.issuers.length - issuers);
    details.push({ field: 'plan.limits.issuers', message: `${held.issuers.length} in use, the ${plan.name} plan allows ${issuers}: archive ${extra.length} (POST /v1/issuers/:id/archive)` });
    for (const i of extra) details.push({ field: 'issuers', message: `${i.id} (${i.name}, CNPJ ${i.cnpj})` });
    words.push(`${extra.length} of ${held.issuers.length} issuers by archiving them (POST /v1/issuers/:id/archive: an issuer is never deleted, its documents are kept 5 years; archived it stays readable, issues nothing and is not counted)`);
  }
  const members = plan.limits.team_members;
  const teamSize = held.team.length + held.owners;
  if (members !== null && teamSize > members) {
    const extra = held.team.slice(0, Math.min(held.team.length, teamSize - members));
    details.push({ field: 'plan.limits.team_members', message: `${teamSize} in use (invites pending included), the ${plan.name} plan allows ${members}: remove ${teamSize - members}` });
    for (const m of extra) details.push({ field: m.kind === 'invite' ? 'invites' : 'members', message: `${m.id} (${m.email}, ${m.role})` });
    words.push(`${teamSize - members} team members or pending invites (DELETE /v1/team/invites/:id, DELETE /v1/team/members/:id)`);
  }
  if (details.length === 0) return;
  throw new ApiError('plan_limits_exceeded', `The account holds more than the ${plan.name} plan allows; remove ${words.join(' and ')}, then downgrade`, details);
}
