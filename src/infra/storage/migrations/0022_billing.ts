import type { Migration } from '../migrate.js';

// Billing. The plans themselves are data in code (platform/billing/plans.ts); these tables
// hold what happened to an account:
//  - billing_plan_changes: every plan change, with when it takes effect (an upgrade at once, a
//    downgrade at the period's end); the plan in force at any instant is the latest change in effect,
//    so the invoice of a past period is computed from the same rows whenever its job runs.
//  - billing_subscriptions: the account's status and hard cap (no row: free plan, active, no cap).
//  - billing_usage: one row per billable document or event, keyed by its id: written in the same
//    statement that records the authorization (note-settlement.ts), ON CONFLICT DO NOTHING, so a
//    retried or replayed settlement never counts twice and a crash never counts one that rolled back.
//  - billing_usage_totals: the per account + period + type count, bumped by the same statement
//    only when the usage row was new (the quota check reads one row, not a month of rows).
//  - billing_invoices: one per account and period (UNIQUE: the monthly job is idempotent).
//  - billing_quota_alerts: billing.quota_reached at most once per account, period and type.
//  - billing_provider_events: each payment-provider webhook event applied once (its id claimed in the
//    transaction that applies it; a redelivery changes nothing).
export const migration: Migration = {
  id: 22,
  name: 'billing: plan changes, subscriptions, metered usage, invoices, quota alerts',
  sql: `
CREATE TABLE billing_subscriptions (
  account_id text PRIMARY KEY REFERENCES accounts(id),
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('trialing', 'active', 'past_due', 'canceled')),
  hard_cap boolean NOT NULL DEFAULT false,
  past_due_since timestamptz,
  provider_customer_id text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE billing_plan_changes (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  from_plan text NOT NULL,
  to_plan text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('upgrade', 'downgrade')),
  period text NOT NULL,
  requested_at timestamptz NOT NULL,
  effective_at timestamptz NOT NULL,
  proration_cents integer NOT NULL DEFAULT 0,
  canceled_at timestamptz
);
CREATE INDEX billing_plan_changes_account_idx ON billing_plan_changes (account_id, effective_at);

CREATE TABLE billing_usage (
  subject_id text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('nfce', 'nfe', 'nfse', 'events')),
  account_id text NOT NULL,
  issuer_id text NOT NULL,
  period text NOT NULL,
  at timestamptz NOT NULL
);
CREATE INDEX billing_usage_account_idx ON billing_usage (account_id, period, kind, issuer_id);

CREATE TABLE billing_usage_totals (
  account_id text NOT NULL,
  period text NOT NULL,
  kind text NOT NULL,
  count integer NOT NULL,
  PRIMARY KEY (account_id, period, kind)
);

CREATE TABLE billing_invoices (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  period text NOT NULL,
  plan text NOT NULL,
  status text NOT NULL CHECK (status IN ('open', 'paid', 'void', 'uncollectible')),
  lines jsonb NOT NULL,
  total_cents integer NOT NULL,
  created_at timestamptz NOT NULL,
  due_at timestamptz NOT NULL,
  paid_at timestamptz,
  payment_url text,
  provider_payment_id text,
  UNIQUE (account_id, period)
);
CREATE INDEX billing_invoices_account_idx ON billing_invoices (account_id, id);

CREATE TABLE billing_provider_events (
  provider text NOT NULL,
  event_id text NOT NULL,
  event text NOT NULL,
  payment_id text,
  received_at timestamptz NOT NULL,
  PRIMARY KEY (provider, event_id)
);

CREATE TABLE billing_quota_alerts (
  account_id text NOT NULL,
  period text NOT NULL,
  kind text NOT NULL,
  event_id text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, period, kind)
);
`,
};
