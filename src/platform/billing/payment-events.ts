import { timingSafeEqual } from 'node:crypto';
import { ApiError } from '../../kernel/errors.js';
import { queueAccountMail } from '../mail/mail-outbox.js';
import { announceNotifications, writeNotification } from '../notifications/notify.js';
import type { Ports } from '../ports/ports.js';
import type { Queryable } from '../../infra/storage/db.js';
import {
  claimProviderEvent, invoiceById, invoiceByProviderPayment, overdueInvoiceCount, setInvoiceStatus, type StoredInvoice,
} from './storage/billing-payment-repository.js';
import { lockSubscription, setSubscriptionStatus } from '../../infra/storage/repositories/billing-repository.js';
import { recordEvent } from '../../infra/storage/repositories/outbox-repository.js';
import { presentInvoice } from './invoices.js';
import { brl } from './plans.js';

/** An Asaas webhook as documented: `{id, event, dateCreated, payment: {object: 'payment', id, externalReference, status, value, ...}}`. */
export interface AsaasWebhook {
  id: string;
  event: string;
  payment?: { id?: string | undefined; externalReference?: string | null | undefined; status?: string | undefined } | undefined;
}

/** The `asaas-access-token` header against ASAAS_WEBHOOK_TOKEN, in constant time; no token configured: nothing passes. */
export function asaasTokenValid(expected: string | undefined, got: string | string[] | undefined): boolean {
  if (!expected || typeof got !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(got);
  return a.length === b.length && timingSafeEqual(a, b);
}

const PAID = new Set(['PAYMENT_RECEIVED', 'PAYMENT_CONFIRMED', 'PAYMENT_RECEIVED_IN_CASH']);

type Deps = Pick<Ports, 'db' | 'clock' | 'config' | 'wakeWorker' | 'notifications'>;

/**
 * POST /v1/billing/webhooks/asaas, once the token checked: the event applied in ONE transaction with
 * its id claimed, so the same event delivered twice (Asaas delivers at least once) changes nothing
 * the second time. Paid: the invoice `paid`, billing.payment_succeeded, and a past_due account whose
 * other invoices are settled is `active` again. Overdue: the account `past_due` (since the first
 * overdue), billing.payment_failed, a notification and an e-mail; sales are never blocked (see
 * changePlan for what the grace period's end blocks). A card refused: billing.payment_failed. A
 * charge removed at Asaas: the invoice `void`. Events for payments we do not know are acknowledged.
 */
export async function applyAsaasWebhook(deps: Deps, e: AsaasWebhook): Promise<{ applied: boolean; invoice_id: string | null }> {
  if (!e.id || !e.event) throw new ApiError('validation_error', 'An Asaas event has an id and an event', [{ field: e.id ? 'event' : 'id', message: 'required' }]);
  const now = deps.clock.now();
  const out = await deps.db.transaction(async (tx) => {
    if (!(await claimProviderEvent(tx, { provider: 'asaas', eventId: e.id, event: e.event, paymentId: e.payment?.id ?? null, at: now }))) return { applied: false, invoice_id: null, accountId: null };
    const invoice = await findInvoice(tx, e.payment);
    if (!invoice) return { applied: false, invoice_id: null, accountId: null };
    const applied = await apply(deps, tx, e, invoice, now);
    return { applied, invoice_id: invoice.id, accountId: invoice.account_id };
  });
  if (out.accountId && out.applied) {
    deps.wakeWorker();
    await announceNotifications(deps, [out.accountId]);
  }
  return { applied: out.applied, invoice_id: out.invoice_id };
}

async function findInvoice(tx: Queryable, payment: AsaasWebhook['payment']): Promise<StoredInvoice | undefined> {
  if (payment?.id) {
    const byPayment = await invoiceByProviderPayment(tx, payment.id);
    if (byPayment) return byPayment;
  }
  const ref = payment?.externalReference;
  return ref && ref.startsWith('inv_') ? invoiceById(tx, ref, true) : undefined;
}

async function apply(deps: Deps, tx: Queryable, e: AsaasWebhook, invoice: StoredInvoice, now: Date): Promise<boolean> {
  const accountId = invoice.account_id;
  const event = (type: string, data: object) => recordEvent(tx, { accountId, type, subjectType: 'billing', subjectId: invoice.id, data, at: now });
  if (PAID.has(e.event)) {
    if (invoice.status === 'paid') return false;
    await setInvoiceStatus(tx, invoice.id, 'paid', now);
    const sub = await lockSubscription(tx, accountId, now);
    if (sub.status === 'past_due' && (await overdueInvoiceCount(tx, accountId, now, invoice.id)) === 0) await setSubscriptionStatus(tx, accountId, 'active', null, now);
    await event('billing.payment_succeeded', { ...presentInvoice({ ...invoice, status: 'paid', paid_at: now }, deps.config.publicBaseUrl), provider_event: e.event });
    return true;
  }
  if (e.event === 'PAYMENT_OVERDUE' || e.event === 'PAYMENT_CREDIT_CARD_CAPTURE_REFUSED') {
    if (invoice.status !== 'open') return false;
    const overdue = e.event === 'PAYMENT_OVERDUE';
    const sub = await lockSubscription(tx, accountId, now);
    if (overdue && sub.status !== 'past_due') await setSubscriptionStatus(tx, accountId, 'past_due', sub.past_due_since ?? now, now);
    const eventId = await event('billing.payment_failed', { ...presentInvoice(invoice, deps.config.publicBaseUrl), reason: overdue ? 'overdue' : 'card_refused', provider_event: e.event });
    const graceDays = deps.config.billing.graceDays;
    const title = overdue ? `Invoice ${invoice.period} is overdue (${brl(invoice.total_cents)})` : `Card payment of invoice ${invoice.period} refused`;
    const body = `${overdue ? 'The payment of' : 'The card was refused for'} invoice ${invoice.id} (${brl(invoice.total_cents)}, due ${invoice.due_at.toISOString().slice(0, 10)}). ` +
      `Your documents keep being issued as usual. Pay at ${invoice.payment_url ?? 'the link in the invoice'}; ` +
      `${graceDays} days after the first overdue invoice, plan upgrades wait until it is paid.`;
    const sourceKey = `billing-payment:${e.event}:${invoice.id}`;
    await writeNotification(tx, { accountId, type: 'billing.payment_failed', title, body, data: { invoice_id: invoice.id, event_id: eventId }, sourceKey, at: now });
    await queueAccountMail(tx, { accountId, subject: title, text: body, sourceKey, at: now });
    return true;
  }
  if (e.event === 'PAYMENT_DELETED' && invoice.status === 'open') {
    await setInvoiceStatus(tx, invoice.id, 'void', null);
    return true;
  }
  return false;
}
