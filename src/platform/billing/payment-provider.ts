/**
 * A payment provider as billing uses it: a customer per account and one charge per
 * invoice, both found again by our own id (externalReference) so a job that crashed after the
 * provider made one never makes a second. Our invoices change every month (overage), so each is its
 * own charge rather than a provider subscription of a fixed value.
 */
export interface PaymentProvider {
  readonly name: string;
  findOrCreateCustomer(c: { externalReference: string; name: string; email: string | null; cpfCnpj: string }): Promise<{ id: string }>;
  findOrCreatePayment(p: { customerId: string; valueCents: number; dueDate: string; description: string; externalReference: string }): Promise<{ id: string; invoiceUrl: string | null; status: string }>;
}

export class PaymentProviderError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}
