import type { Queryable } from '../db.js';

// SQL of billing (migration 22). Plans are data in platform/billing/plans.ts; here are the
// rows of what happened to each account.

export interface PlanChangeRow {
  id: string;
  account_id: string;
  from_plan: string;
  to_plan: string;
  kind: 'upgrade' | 'downgrade';
  period: string;
  requested_at: Date;
  effective_at: Date;
  proration_cents: number;
  /** Set on the change that started the account's trial (docs/guides/billing.md "Trial"): the paid plan is free until then. */
  trial_ends_at: Date | null;
  canceled_at: Date | null;
}

export interface SubscriptionRow {
  account_id: string;
  status: 'trialing' | 'active' | 'past_due' | 'canceled';
  hard_cap: boolean;
  past_due_since: Date | null;
}

export interface InvoiceRow {
  id: string;
  account_id: string;
  period: string;
  plan: string;
  status: 'open' | 'paid' | 'void' | 'uncollectible';
  lines: { description: string; kind: string; quantity: number; unit_cents: number; amount_cents: number }[];
  total_cents: number;
  created_at: Date;
  due_at: Date;
  paid_at: Date | null;
  payment_url: string | null;
}

/** The account and its environment (sandbox accounts are never billed), or undefined. */
export async function billingAccount(db: Queryable, accountId: string): Promise<{ id: string; name: string; environment: string; closed_at: Date | null } | undefined> {
  const r = await db.query<{ id: string; name: string; environment: string; closed_at: Date | null }>(
    'SELECT id, name, environment, closed_at FROM accounts WHERE id = $1',
    [accountId],
  );
  return r.rows[0];
}

export async function getSubscription(db: Queryable, accountId: string, forUpdate = false): Promise<SubscriptionRow | undefined> {
  const r = await db.query<SubscriptionRow>(
    `SELECT account_id, status, hard_cap, past_due_since FROM billing_subscriptions WHERE account_id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [accountId],
  );
  return r.rows[0];
}

/** The subscription row, made on first use (no row reads as free, active, no cap); locked for the caller's transaction. */
export async function lockSubscription(tx: Queryable, accountId: string, now: Date): Promise<SubscriptionRow> {
  await tx.query(
    `INSERT INTO billing_subscriptions (account_id, created_at, updated_at) VALUES ($1, $2, $2) ON CONFLICT (account_id) DO NOTHING`,
    [accountId, now],
  );
  return (await getSubscription(tx, accountId, true))!;
}

export async function setHardCap(tx: Queryable, accountId: string, hardCap: boolean, now: Date): Promise<void> {
  await tx.query('UPDATE billing_subscriptions SET hard_cap = $2, updated_at = $3 WHERE account_id = $1', [accountId, hardCap, now]);
}

export async function setSubscriptionStatus(tx: Queryable, accountId: string, status: SubscriptionRow['status'], pastDueSince: Date | null, now: Date): Promise<void> {
  await tx.query('UPDATE billing_subscriptions SET status = $2, past_due_since = $3, updated_at = $4 WHERE account_id = $1', [accountId, status, pastDueSince, now]);
}

/** The account's plan changes not canceled, oldest effect first. */
export async function planChanges(db: Queryable, accountId: string): Promise<PlanChangeRow[]> {
  const r = await db.query<PlanChangeRow>(
    'SELECT * FROM billing_plan_changes WHERE account_id = $1 AND canceled_at IS NULL ORDER BY effective_at, requested_at',
    [accountId],
  );
  return r.rows;
}

export async function insertPlanChange(tx: Queryable, c: Omit<PlanChangeRow, 'canceled_at'>): Promise<void> {
  await tx.query(
    `INSERT INTO billing_plan_changes (id, account_id, from_plan, to_plan, kind, period, requested_at, effective_at, proration_cents, trial_ends_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [c.id, c.account_id, c.from_plan, c.to_plan, c.kind, c.period, c.requested_at, c.effective_at, c.proration_cents, c.trial_ends_at],
  );
}

/** Cancels the changes still to take effect (a new choice replaces a scheduled downgrade). */
export async function cancelPendingChanges(tx: Queryable, accountId: string, now: Date): Promise<number> {
  const r = await tx.query('UPDATE billing_plan_changes SET canceled_at = $2 WHERE account_id = $1 AND canceled_at IS NULL AND effective_at > $2', [accountId, now]);
  return r.rowCount ?? 0;
}

/** Counts of one period, by type (the aggregate the metering statement keeps). */
export async function usageTotals(db: Queryable, accountId: string, period: string): Promise<Record<string, number>> {
  const r = await db.query<{ kind: string; count: number }>('SELECT kind, count FROM billing_usage_totals WHERE account_id = $1 AND period = $2', [accountId, period]);
  return Object.fromEntries(r.rows.map((row) => [row.kind, Number(row.count)]));
}

/** One period's usage by type and issuer, from the usage rows themselves. */
export async function usageByIssuer(db: Queryable, accountId: string, period: string): Promise<{ kind: string; issuer_id: string; count: number }[]> {
  const r = await db.query<{ kind: string; issuer_id: string; count: number }>(
    `SELECT kind, issuer_id, count(*)::int AS count FROM billing_usage WHERE account_id = $1 AND period = $2 GROUP BY kind, issuer_id ORDER BY kind, issuer_id`,
    [accountId, period],
  );
  return r.rows;
}

/** A billable event (CC-e) metered in the caller's transaction; false when it was counted already. */
export async function meterUsage(
  tx: Queryable,
  u: { subjectId: string; kind: 'nfce' | 'nfe' | 'nfse' | 'events'; accountId: string; issuerId: string; period: string; at: Date },
): Promise<{ count: number } | null> {
  const r = await tx.query<{ count: number }>(
    `WITH m AS (
       INSERT INTO billing_usage (subject_id, kind, account_id, issuer_id, period, at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT DO NOTHING RETURNING account_id, period, kind)
     INSERT INTO billing_usage_totals (account_id, period, kind, count) SELECT account_id, period, kind, 1 FROM m
     ON CONFLICT (account_id, period, kind) DO UPDATE SET count = billing_usage_totals.count + 1
     RETURNING count`,
    [u.subjectId, u.kind, u.accountId, u.issuerId, u.period, u.at],
  );
  return r.rows[0] ? { count: Number(r.rows[0].count) } : null;
}

/** Claims billing.quota_reached of an account, period and type; false when it was raised already. */
export async function claimQuotaAlert(tx: Queryable, a: { accountId: string; period: string; kind: string; eventId: string; at: Date }): Promise<boolean> {
  const r = await tx.query(
    'INSERT INTO billing_quota_alerts (account_id, period, kind, event_id, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING',
    [a.accountId, a.period, a.kind, a.eventId, a.at],
  );
  return (r.rowCount ?? 0) === 1;
}

/** Production accounts: the ones the monthly job bills (the sandbox is never billed). */
export async function billableAccountIds(db: Queryable): Promise<string[]> {
  const r = await db.query<{ id: string }>(`SELECT id FROM accounts WHERE environment = 'production' ORDER BY id`);
  return r.rows.map((row) => row.id);
}

/** The period's invoice, stored once per account and period (false: it existed already). */
export async function insertInvoice(tx: Queryable, i: Omit<InvoiceRow, 'paid_at'>): Promise<boolean> {
  const r = await tx.query(
    `INSERT INTO billing_invoices (id, account_id, period, plan, status, lines, total_cents, created_at, due_at, payment_url)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (account_id, period) DO NOTHING`,
    [i.id, i.account_id, i.period, i.plan, i.status, JSON.stringify(i.lines), i.total_cents, i.created_at, i.due_at, i.payment_url],
  );
  return (r.rowCount ?? 0) === 1;
}

export async function findInvoice(db: Queryable, accountId: string, id: string): Promise<InvoiceRow | undefined> {
  const r = await db.query<InvoiceRow>('SELECT * FROM billing_invoices WHERE account_id = $1 AND id = $2', [accountId, id]);
  return r.rows[0];
}

export async function listInvoices(db: Queryable, accountId: string, limit: number, startingAfter?: string): Promise<InvoiceRow[]> {
  const r = await db.query<InvoiceRow>(
    `SELECT * FROM billing_invoices WHERE account_id = $1 ${startingAfter ? 'AND period < (SELECT period FROM billing_invoices WHERE account_id = $1 AND id = $3)' : ''}
      ORDER BY period DESC LIMIT $2`,
    startingAfter ? [accountId, limit, startingAfter] : [accountId, limit],
  );
  return r.rows;
}

/** What the plan's limits count: the account's issuers, or its members plus live invites (other than to `exceptEmailKey`). */
export async function countLimited(db: Queryable, accountId: string, what: 'issuers' | 'team_members', now: Date, exceptEmailKey?: string): Promise<number> {
  const r = what === 'issuers'
    ? await db.query<{ c: number }>('SELECT count(*)::int AS c FROM issuers WHERE account_id = $1 AND archived_at IS NULL', [accountId])
    : await db.query<{ c: number }>(
        `SELECT (SELECT count(*) FROM memberships WHERE account_id = $1)
              + (SELECT count(*) FROM invites WHERE account_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $2
                   AND email_key IS DISTINCT FROM $3) AS c`,
        [accountId, now, exceptEmailKey ?? null],
      );
  return Number(r.rows[0]?.c ?? 0);
}
