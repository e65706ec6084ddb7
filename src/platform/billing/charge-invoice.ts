import { enqueueJob, type Job } from '../../infra/queue/queue.js';
import type { Ports } from '../ports/ports.js';
import type { Queryable } from '../../infra/storage/db.js';
import {
  billingParty, invoiceById, providerCustomerId, setInvoicePayment, setProviderCustomerId,
} from './storage/billing-payment-repository.js';
import { asaasProvider } from './asaas-provider.js';
import type { PaymentProvider } from './payment-provider.js';

export const CHARGE_INVOICE_JOB = 'billing.charge-invoice';

/** Queued in the invoice's own transaction when a payment provider is configured. */
export async function queueCharge(tx: Queryable, invoiceId: string, now: Date): Promise<void> {
  await enqueueJob(tx, CHARGE_INVOICE_JOB, { invoiceId }, { runAt: now, now, dedupeKey: `billing-charge:${invoiceId}`, maxAttempts: 50 });
}

export function configuredProvider(config: Ports['config']): PaymentProvider | null {
  return config.billing.asaas ? asaasProvider(config.billing.asaas) : null;
}

/**
 * Job `billing.charge-invoice`: the provider's customer for the account (made once, its id kept) and
 * a charge for the invoice, whose payment link becomes the invoice's `payment_url`. Both are looked
 * up by our ids before being made, so a rerun after a crash between the provider's answer and our
 * write finds them instead of charging twice.
 */
export async function chargeInvoice(deps: Pick<Ports, 'db' | 'clock' | 'config'>, invoiceId: string, provider = configuredProvider(deps.config)): Promise<void> {
  if (!provider) return;
  // The invoice row stays locked across the provider's calls: two runs of the job at once (a lease
  // that ran out mid-call) take turns, and the second finds the charge the first stored.
  await deps.db.transaction(async (tx) => {
    const invoice = await invoiceById(tx, invoiceId, true);
    if (!invoice || invoice.status !== 'open' || invoice.provider_payment_id) return;
    let customerId = await providerCustomerId(tx, invoice.account_id);
    if (!customerId) {
      const party = await billingParty(tx, invoice.account_id);
      if (!party.cnpj) throw new Error(`account ${invoice.account_id} has no issuer CNPJ to bill invoice ${invoice.id} to`);
      customerId = (await provider.findOrCreateCustomer({ externalReference: invoice.account_id, name: party.name, email: party.email, cpfCnpj: party.cnpj })).id;
      await setProviderCustomerId(tx, invoice.account_id, customerId, deps.clock.now());
    }
    const payment = await provider.findOrCreatePayment({
      customerId, valueCents: invoice.total_cents, dueDate: invoice.due_at.toISOString().slice(0, 10), description: `Fiscal gateway invoice ${invoice.id} (${invoice.period})`, externalReference: invoice.id,
    });
    await setInvoicePayment(tx, invoice.id, payment.id, payment.invoiceUrl);
  });
}

export const chargeInvoiceJob = (deps: Pick<Ports, 'db' | 'clock' | 'config'>) => (job: Job<{ invoiceId: string }>) => chargeInvoice(deps, job.payload.invoiceId);
