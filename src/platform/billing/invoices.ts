import { ApiError } from '../../kernel/errors.js';
import { newId } from '../../kernel/ids.js';
import { enqueueJob, type Job } from '../../infra/queue/queue.js';
import type { Ports } from '../ports/ports.js';
import type { Queryable } from '../../infra/storage/db.js';
import {
  billableAccountIds, billingAccount, findInvoice, insertInvoice, listInvoices, planChanges, usageTotals, type InvoiceRow, type PlanChangeRow,
} from '../../infra/storage/repositories/billing-repository.js';
import { recordEvent } from '../../infra/storage/repositories/outbox-repository.js';
import { planAt } from './account-plan.js';
import { queueCharge } from './charge-invoice.js';
import { nextPeriod, periodBounds, type Period } from './period.js';
import { brl, PLANS } from './plans.js';
import { periodShare } from './proration.js';
import { inTrial, trialOf } from './trial.js';
import { usageLines } from './usage.js';

export const CLOSE_PERIOD_JOB = 'billing.close-period';
const DAY_MS = 86_400_000;
/** An invoice is due this long after its period closes. */
export const INVOICE_DUE_DAYS = 10;

const KIND_LABEL: Record<string, string> = { nfce: 'NFC-e', nfe: 'NF-e', nfse: 'NFS-e', events: 'events (CC-e, delivery, reform)' };

/** The close of `period`, queued once whoever asks (dedupe key), to run when the period ends. */
export async function scheduleClosePeriod(db: Queryable, period: string, now: Date): Promise<void> {
  const end = periodBounds(period).end;
  await enqueueJob(db, CLOSE_PERIOD_JOB, { period }, { runAt: end < now ? now : end, now, dedupeKey: `billing-close:${period}`, maxAttempts: 100 });
}

/**
 * The invoice lines of one account and period, from its plan changes and metered usage. Pure:
 *  - the plan in force at the period's start, at its full monthly price;
 *  - each upgrade during the period, its proration (stored with the change);
 *  - per type, the documents past the included ones of the plan in force at the period's end, at
 *    that plan's overage price (an upgrade's larger allowance counts for the whole month);
 *  - a trial (trial.ts) makes its days free: the plan from its end only, no overage while it lasts.
 */
export function invoiceLines(changes: readonly PlanChangeRow[], period: Period, used: Partial<Record<string, number>>): InvoiceRow['lines'] {
  const startPlan = PLANS[planAt(changes, period.start)];
  const endPlan = planAt(changes, new Date(period.end.getTime() - 1));
  const trial = trialOf(changes);
  const lines: InvoiceRow['lines'] = [];
  if (inTrial(trial, period.start)) {
    // A trial runs at the period's start: the plan costs from the trial's end, if that is in the period.
    const amount = periodShare(startPlan.monthly_price_cents, period, trial.end);
    if (amount > 0) lines.push({ kind: 'plan', description: `${startPlan.name} plan from the trial's end on ${trial.end.toISOString().slice(0, 10)}, ${period.id}`, quantity: 1, unit_cents: amount, amount_cents: amount });
  } else if (startPlan.monthly_price_cents > 0) {
    lines.push({ kind: 'plan', description: `${startPlan.name} plan, ${period.id}`, quantity: 1, unit_cents: startPlan.monthly_price_cents, amount_cents: startPlan.monthly_price_cents });
  }
  for (const c of changes) {
    if (c.kind !== 'upgrade' || c.period !== period.id || c.canceled_at || c.proration_cents === 0) continue;
    const from = PLANS[c.from_plan as keyof typeof PLANS]?.name ?? c.from_plan;
    const to = PLANS[c.to_plan as keyof typeof PLANS]?.name ?? c.to_plan;
    lines.push({ kind: 'proration', description: `Upgrade ${from} to ${to} on ${c.effective_at.toISOString().slice(0, 10)} (rest of the period)`, quantity: 1, unit_cents: c.proration_cents, amount_cents: c.proration_cents });
  }
  // A period that ends within the trial charges no overage: its documents count on the plan's allowance, free.
  for (const u of inTrial(trial, new Date(period.end.getTime() - 1)) ? [] : usageLines(endPlan, used, true)) {
    if (u.overage === 0) continue;
    lines.push({
      kind: `overage.${u.kind}`,
      description: `${KIND_LABEL[u.kind]} past the ${u.included} included (${u.used} used) at ${brl(u.overage_unit_cents)} each`,
      quantity: u.overage, unit_cents: u.overage_unit_cents, amount_cents: u.overage_cents,
    });
  }
  return lines;
}

/**
 * The monthly job: the invoice of `period` for every production account (the
 * sandbox is never billed), each stored with its billing.invoice_created event in one transaction.
 * Idempotent per account + period (UNIQUE (account_id, period)): a rerun, a second worker or a
 * retry after a crash creates nothing twice. An account with nothing to pay gets no invoice.
 * Then queues the next period's close.
 */
export async function closePeriod(deps: Pick<Ports, 'db' | 'clock' | 'config' | 'wakeWorker'>, period: string): Promise<{ created: string[] }> {
  const bounds = periodBounds(period);
  const now = deps.clock.now();
  if (now < bounds.end) throw new Error(`period ${period} closes at ${bounds.end.toISOString()}, not before`);
  const created: string[] = [];
  for (const accountId of await billableAccountIds(deps.db)) {
    const lines = invoiceLines(await planChanges(deps.db, accountId), bounds, await usageTotals(deps.db, accountId, period));
    const total = lines.reduce((s, l) => s + l.amount_cents, 0);
    if (total === 0) continue;
    const row = {
      id: newId('inv'), account_id: accountId, period, plan: planAt(await planChanges(deps.db, accountId), new Date(bounds.end.getTime() - 1)),
      status: 'open' as const, lines, total_cents: total, created_at: now, due_at: new Date(bounds.end.getTime() + INVOICE_DUE_DAYS * DAY_MS), payment_url: null,
    };
    const stored = await deps.db.transaction(async (tx) => {
      if (!(await insertInvoice(tx, row))) return false;
      await recordEvent(tx, { accountId, type: 'billing.invoice_created', subjectType: 'billing', subjectId: row.id, data: presentInvoice({ ...row, paid_at: null }, deps.config.publicBaseUrl), at: now });
      // With a payment provider, its charge is made by a job queued with the invoice (charge-invoice.ts).
      if (deps.config.billing.asaas) await queueCharge(tx, row.id, now);
      return true;
    });
    if (stored) created.push(row.id);
  }
  if (created.length) deps.wakeWorker();
  await scheduleClosePeriod(deps.db, nextPeriod(period), now);
  return { created };
}

export async function closePeriodJob(deps: Pick<Ports, 'db' | 'clock' | 'config' | 'wakeWorker'>, job: Job<{ period: string }>): Promise<void> {
  await closePeriod(deps, job.payload.period);
}

export function presentInvoice(r: InvoiceRow, baseUrl: string) {
  return {
    id: r.id,
    object: 'billing_invoice' as const,
    period: r.period,
    plan: r.plan,
    status: r.status,
    currency: 'BRL' as const,
    lines: r.lines,
    total_cents: r.total_cents,
    created_at: r.created_at.toISOString(),
    due_at: r.due_at.toISOString(),
    paid_at: r.paid_at ? r.paid_at.toISOString() : null,
    payment_url: r.payment_url,
    pdf_url: `${baseUrl}/v1/billing/invoices/${r.id}/pdf`,
  };
}

export async function listAccountInvoices(deps: Pick<Ports, 'db' | 'config'>, accountId: string, q: { limit?: number | undefined; starting_after?: string | undefined }) {
  const limit = q.limit ?? 20;
  const rows = await listInvoices(deps.db, accountId, limit + 1, q.starting_after);
  return { data: rows.slice(0, limit).map((r) => presentInvoice(r, deps.config.publicBaseUrl)), has_more: rows.length > limit };
}

export async function getAccountInvoice(deps: Pick<Ports, 'db'>, accountId: string, id: string): Promise<InvoiceRow> {
  const row = await findInvoice(deps.db, accountId, id);
  if (!row) throw new ApiError('not_found', `invoice ${id} not found`);
  return row;
}

export async function invoiceAccountName(deps: Pick<Ports, 'db'>, accountId: string): Promise<string> {
  return (await billingAccount(deps.db, accountId))?.name ?? accountId;
}

