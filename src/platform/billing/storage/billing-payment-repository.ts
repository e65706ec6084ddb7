import type { Queryable } from '../../../infra/storage/db.js';
import type { InvoiceRow } from '../../../infra/storage/repositories/billing-repository.js';

// SQL of billing's payments: the provider's ids on our rows, and each provider
// webhook event claimed once.

export type StoredInvoice = InvoiceRow & { provider_payment_id: string | null };

export async function invoiceById(db: Queryable, id: string, forUpdate = false): Promise<StoredInvoice | undefined> {
  const r = await db.query<StoredInvoice>(`SELECT * FROM billing_invoices WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [id]);
  return r.rows[0];
}

export async function invoiceByProviderPayment(db: Queryable, paymentId: string): Promise<StoredInvoice | undefined> {
  const r = await db.query<StoredInvoice>('SELECT * FROM billing_invoices WHERE provider_payment_id = $1 FOR UPDATE', [paymentId]);
  return r.rows[0];
}

export async function setInvoicePayment(tx: Queryable, id: string, paymentId: string, paymentUrl: string | null): Promise<void> {
  await tx.query('UPDATE billing_invoices SET provider_payment_id = $2, payment_url = $3 WHERE id = $1', [id, paymentId, paymentUrl]);
}

export async function setInvoiceStatus(tx: Queryable, id: string, status: InvoiceRow['status'], paidAt: Date | null): Promise<void> {
  await tx.query('UPDATE billing_invoices SET status = $2, paid_at = $3 WHERE id = $1', [id, status, paidAt]);
}

/** Open invoices of the account already past their due date (other than `except`). */
export async function overdueInvoiceCount(tx: Queryable, accountId: string, now: Date, except: string): Promise<number> {
  const r = await tx.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM billing_invoices WHERE account_id = $1 AND status = 'open' AND due_at < $2 AND id <> $3`,
    [accountId, now, except],
  );
  return Number(r.rows[0]!.n);
}

export async function providerCustomerId(db: Queryable, accountId: string): Promise<string | null> {
  const r = await db.query<{ provider_customer_id: string | null }>('SELECT provider_customer_id FROM billing_subscriptions WHERE account_id = $1', [accountId]);
  return r.rows[0]?.provider_customer_id ?? null;
}

export async function setProviderCustomerId(tx: Queryable, accountId: string, customerId: string, now: Date): Promise<void> {
  await tx.query(
    `INSERT INTO billing_subscriptions (account_id, provider_customer_id, created_at, updated_at) VALUES ($1, $2, $3, $3)
     ON CONFLICT (account_id) DO UPDATE SET provider_customer_id = $2, updated_at = $3`,
    [accountId, customerId, now],
  );
}

/** What the provider needs to make the customer: the account's name and e-mail, and its oldest issuer's CNPJ. */
export async function billingParty(db: Queryable, accountId: string): Promise<{ name: string; email: string | null; cnpj: string | null }> {
  const r = await db.query<{ name: string; email: string | null; cnpj: string | null }>(
    `SELECT a.name, a.notification_email AS email,
            (SELECT i.cnpj FROM issuers i WHERE i.account_id = a.id ORDER BY i.created_at, i.id LIMIT 1) AS cnpj
       FROM accounts a WHERE a.id = $1`,
    [accountId],
  );
  return r.rows[0] ?? { name: accountId, email: null, cnpj: null };
}

/** Claims a provider's webhook event in the caller's transaction; false: it was applied before. */
export async function claimProviderEvent(tx: Queryable, e: { provider: string; eventId: string; event: string; paymentId: string | null; at: Date }): Promise<boolean> {
  const r = await tx.query(
    'INSERT INTO billing_provider_events (provider, event_id, event, payment_id, received_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING',
    [e.provider, e.eventId, e.event, e.paymentId, e.at],
  );
  return (r.rowCount ?? 0) === 1;
}
