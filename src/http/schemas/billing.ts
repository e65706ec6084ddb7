import { Type } from 'typebox';
import { PLAN_IDS, USAGE_KINDS } from '../../platform/billing/plans.js';
import { StringLiterals, Timestamp } from './common.js';

const Cents = (description: string) => Type.Integer({ description: `${description} (BRL cents)` });
const PerKind = (description: string) =>
  Type.Object(Object.fromEntries(USAGE_KINDS.map((k) => [k, Type.Integer({ description: `${description}: ${k}` })])) as Record<(typeof USAGE_KINDS)[number], ReturnType<typeof Type.Integer>>);

export const PlanSchema = Type.Object(
  {
    id: StringLiterals(PLAN_IDS, { description: 'Plan id' }),
    name: Type.String({ description: 'Plan name' }),
    monthly_price_cents: Cents('Monthly price'),
    included: PerKind('Documents included per month'),
    overage_cents: PerKind('Price of each document past the included ones, BRL cents'),
    limits: Type.Object({
      issuers: Type.Union([Type.Integer(), Type.Null()], { description: 'Issuers the account may register; null: no limit' }),
      team_members: Type.Union([Type.Integer(), Type.Null()], { description: 'Team members; null: no limit' }),
    }, { description: 'Limits of the account' }),
  },
  { title: 'BillingPlan', description: 'A plan (platform/billing/plans.ts)' },
);

export const UsageLine = Type.Object({
  kind: StringLiterals(USAGE_KINDS, { description: 'nfce, nfe, nfse or events (registered CC-e)' }),
  included: Type.Integer({ description: 'Included per month by the plan' }),
  used: Type.Integer({ description: 'Metered this period' }),
  overage: Type.Integer({ description: 'Documents past the included ones' }),
  overage_unit_cents: Cents('Price of each (0 in the sandbox)'),
  overage_cents: Cents('Overage so far'),
});

export const SubscriptionSchema = Type.Object(
  {
    object: Type.Literal('billing_subscription'),
    plan: PlanSchema,
    status: StringLiterals(['trialing', 'active', 'past_due', 'canceled'] as const, {
      description: 'Subscription status: trialing during the trial the first paid plan starts (its days are not charged), then active',
    }),
    trial_ends_at: Type.Union([Timestamp, Type.Null()], { description: 'While the trial lasts: its end, from which the plan is charged' }),
    sandbox: Type.Boolean({ description: 'A sandbox account: never billed (no invoices, nothing to pay)' }),
    hard_cap: Type.Boolean({ description: 'Refuse documents past the included ones (402 quota_exceeded) instead of billing them as overage' }),
    current_period: Type.Object({ id: Type.String({ description: 'YYYY-MM (Brasília time)' }), start: Timestamp, end: Timestamp }, { description: 'The billing period now' }),
    usage: Type.Array(UsageLine, { description: 'Included and used documents per type' }),
    overage_cents: Cents('Overage so far this period'),
    pending_change: Type.Union([Type.Object({ to_plan: StringLiterals(PLAN_IDS), effective_at: Timestamp }), Type.Null()], { description: 'A downgrade waiting for the period end' }),
    next_invoice: Type.Union(
      [
        Type.Object({
          period: Type.String({ description: 'YYYY-MM' }),
          created_at: Timestamp,
          plan_cents: Cents('The plan in force at the period start (from the trial\'s end if a trial covers the start)'),
          proration_cents: Cents('Upgrades during the period (from the trial\'s end for those made during it)'),
          overage_cents: Cents('Overage so far'),
          estimated_total_cents: Cents('Estimate if nothing more is used'),
        }),
        Type.Null(),
      ],
      { description: 'Estimate of the invoice at the period close (null in the sandbox)' },
    ),
    past_due_since: Type.Union([Timestamp, Type.Null()], { description: 'When a payment first failed, while past_due' }),
    grace_ends_at: Type.Union([Timestamp, Type.Null()], { description: 'While past_due: when plan upgrades stop until paid (sales never stop)' }),
  },
  { title: 'BillingSubscription' },
);

export const PatchSubscriptionBody = Type.Object(
  { hard_cap: Type.Boolean({ description: 'true: documents past the plan\'s included ones are refused (402 quota_exceeded) before the authority is called; false (default): they are issued and billed as overage' }) },
  { additionalProperties: false },
);

export const UpgradeBody = Type.Object(
  {
    plan: Type.String({ maxLength: 32, description: `The plan to change to: ${PLAN_IDS.join(', ')}` }),
    preview: Type.Optional(Type.Boolean({ description: 'true: answer the change and its proration math without making it' })),
  },
  { additionalProperties: false },
);

export const PlanChangeSchema = Type.Object(
  {
    id: Type.Union([Type.String(), Type.Null()], { description: 'pch_... (null for a preview)' }),
    object: Type.Literal('billing_plan_change'),
    preview: Type.Boolean({ description: 'Nothing was changed' }),
    from_plan: StringLiterals(PLAN_IDS, { description: 'Plan in force before' }),
    to_plan: StringLiterals(PLAN_IDS, { description: 'Plan chosen' }),
    kind: StringLiterals(['upgrade', 'downgrade'] as const, { description: 'upgrade: at once, prorated; downgrade: at the period end' }),
    effective_at: Timestamp,
    trial_ends_at: Type.Union([Timestamp, Type.Null()], {
      description: 'The end of the trial this change starts (the first paid plan of a billed account) or falls in: the plan is charged from then; null without a trial',
    }),
    proration: Type.Object(
      {
        from_plan: Type.String(),
        to_plan: Type.String(),
        remaining_ms: Type.Integer({ description: 'Milliseconds of the period left when the change takes effect (when the trial ends, during a trial)' }),
        period_ms: Type.Integer({ description: 'Length of the period' }),
        fraction: Type.Number({ description: 'remaining_ms / period_ms (6 places)' }),
        price_difference_cents: Cents('New monthly price minus the old'),
        amount_cents: Cents('round(difference x remaining / period); 0 for a downgrade'),
        billed: Type.Boolean({ description: 'false in the sandbox (never billed)' }),
      },
      { description: 'The proration math' },
    ),
  },
  { title: 'BillingPlanChange' },
);

const InvoiceLine = Type.Object({
  kind: Type.String({ description: 'plan, proration, overage.nfce, overage.nfe, overage.nfse, overage.events' }),
  description: Type.String(),
  quantity: Type.Integer(),
  unit_cents: Cents('Unit price'),
  amount_cents: Cents('Line amount'),
});

export const InvoiceSchema = Type.Object(
  {
    id: Type.String({ description: 'inv_...' }),
    object: Type.Literal('billing_invoice'),
    period: Type.String({ description: 'YYYY-MM' }),
    plan: Type.String({ description: 'Plan in force at the period end' }),
    status: StringLiterals(['open', 'paid', 'void', 'uncollectible'] as const, { description: 'Invoice status' }),
    currency: Type.Literal('BRL'),
    lines: Type.Array(InvoiceLine, { description: 'Plan, upgrades\' proration, overage per type' }),
    total_cents: Cents('Total'),
    created_at: Timestamp,
    due_at: Timestamp,
    paid_at: Type.Union([Timestamp, Type.Null()]),
    payment_url: Type.Union([Type.String(), Type.Null()], { description: 'Where to pay, once the payment provider made the charge' }),
    pdf_url: Type.String({ description: 'GET it for the PDF' }),
  },
  { title: 'BillingInvoice' },
);

export const UsageQuery = Type.Object(
  { period: Type.Optional(Type.String({ maxLength: 7, description: 'YYYY-MM (Brasília time); default: the current period' })) },
  { additionalProperties: false },
);

export const UsageSchema = Type.Object(
  {
    object: Type.Literal('billing_usage'),
    period: Type.String({ description: 'YYYY-MM' }),
    totals: PerKind('Metered in the period'),
    by_issuer: Type.Array(
      Type.Object({ issuer_id: Type.String(), nfce: Type.Integer(), nfe: Type.Integer(), nfse: Type.Integer(), events: Type.Integer() }),
      { description: 'The same counts per issuer' },
    ),
  },
  { title: 'BillingUsage' },
);

export const AsaasWebhookBody = Type.Object(
  {
    id: Type.String({ maxLength: 200, description: 'The event id (evt_...): applied once' }),
    event: Type.String({ maxLength: 100, description: 'PAYMENT_RECEIVED, PAYMENT_CONFIRMED, PAYMENT_OVERDUE, PAYMENT_CREDIT_CARD_CAPTURE_REFUSED, PAYMENT_DELETED, ...' }),
    payment: Type.Optional(Type.Object(
      {
        id: Type.Optional(Type.String({ maxLength: 100 })),
        externalReference: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
        status: Type.Optional(Type.String({ maxLength: 100 })),
      },
      { additionalProperties: true, description: 'The payment (cobrança) object' },
    )),
  },
  { additionalProperties: true },
);

export const AsaasWebhookAnswer = Type.Object({
  received: Type.Literal(true),
  applied: Type.Boolean({ description: 'false: already applied (same event id), or nothing to change' }),
  invoice_id: Type.Union([Type.String(), Type.Null()], { description: 'The invoice the payment belongs to' }),
});
