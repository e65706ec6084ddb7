/**
 * The plans, as data: prices in BRL integer cents (never floats for money), the documents
 * included per month by type, the price of each document past them (overage), and the account's
 * limits. The "Plans" table of docs/guides/billing.md is generated from these words (plansTableMarkdown below;
 * test/billing-plans.test.ts holds the guide to it).
 */
export const PLAN_IDS = ['free', 'starter', 'pro', 'enterprise'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

/** What is metered: authorized NFC-e, NF-e and NFS-e, and billable events (registered CC-e). */
export const USAGE_KINDS = ['nfce', 'nfe', 'nfse', 'events'] as const;
export type UsageKind = (typeof USAGE_KINDS)[number];

export interface Plan {
  id: PlanId;
  name: string;
  /** Monthly price, BRL cents. */
  monthly_price_cents: number;
  /** Documents included per month, by type. */
  included: Readonly<Record<UsageKind, number>>;
  /** Price of each document past the included ones, BRL cents. */
  overage_cents: Readonly<Record<UsageKind, number>>;
  /** Null: no limit. */
  limits: { issuers: number | null; team_members: number | null };
}

export const PLANS: Readonly<Record<PlanId, Plan>> = {
  free: {
    id: 'free',
    name: 'Free',
    monthly_price_cents: 0,
    included: { nfce: 100, nfe: 20, nfse: 20, events: 20 },
    overage_cents: { nfce: 25, nfe: 50, nfse: 50, events: 10 },
    limits: { issuers: 1, team_members: 2 },
  },
  starter: {
    id: 'starter',
    name: 'Starter',
    monthly_price_cents: 4_900,
    included: { nfce: 1_000, nfe: 200, nfse: 200, events: 100 },
    overage_cents: { nfce: 10, nfe: 20, nfse: 20, events: 5 },
    limits: { issuers: 3, team_members: 5 },
  },
  pro: {
    id: 'pro',
    name: 'Pro',
    monthly_price_cents: 19_900,
    included: { nfce: 10_000, nfe: 2_000, nfse: 2_000, events: 1_000 },
    overage_cents: { nfce: 6, nfe: 12, nfse: 12, events: 3 },
    limits: { issuers: 20, team_members: 20 },
  },
  enterprise: {
    id: 'enterprise',
    name: 'Enterprise',
    monthly_price_cents: 99_900,
    included: { nfce: 100_000, nfe: 20_000, nfse: 20_000, events: 10_000 },
    overage_cents: { nfce: 3, nfe: 6, nfse: 6, events: 1 },
    limits: { issuers: null, team_members: null },
  },
};

/** The plan of an account that never chose one. */
export const DEFAULT_PLAN: PlanId = 'free';

export function isPlanId(value: string): value is PlanId {
  return (PLAN_IDS as readonly string[]).includes(value);
}

/** Upgrade: a dearer plan (effective at once, prorated); otherwise a downgrade (at the period's end). */
export function isUpgrade(from: PlanId, to: PlanId): boolean {
  return PLANS[to].monthly_price_cents > PLANS[from].monthly_price_cents;
}

/** R$ 1.234,56 (the billing guide and the invoice PDF). */
export function brl(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const reais = Math.floor(abs / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${sign}R$ ${reais},${String(abs % 100).padStart(2, '0')}`;
}

const count = (n: number | null) => (n === null ? 'unlimited' : String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '.'));

/**
 * The "Plans" table of docs/guides/billing.md, from the data above. Regenerate:
 * npx tsx -e "import('./src/platform/billing/plans.ts').then((m) => console.log(m.plansTableMarkdown()))"
 */
export function plansTableMarkdown(): string {
  const rows = PLAN_IDS.map((id) => {
    const p = PLANS[id];
    const kinds = USAGE_KINDS.map((k) => `${count(p.included[k])} (+${brl(p.overage_cents[k])})`);
    return `| \`${id}\` | ${p.name} | ${brl(p.monthly_price_cents)} | ${kinds.join(' | ')} | ${count(p.limits.issuers)} | ${count(p.limits.team_members)} |`;
  });
  return [
    '| plan | name | per month | NFC-e included (+each past it) | NF-e | NFS-e | events (CC-e, delivery and reform events) | issuers | team members |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}
