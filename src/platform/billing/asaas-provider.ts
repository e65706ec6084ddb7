import { PaymentProviderError, type PaymentProvider } from './payment-provider.js';

interface AsaasList<T> {
  object: 'list';
  data: T[];
}
interface AsaasPayment {
  id: string;
  status: string;
  invoiceUrl?: string | null;
}

/**
 * Asaas REST API v3 (docs.asaas.com): JSON, the API key in the `access_token` header, values in reais
 * (decimal), dates `YYYY-MM-DD`. Customers (POST /customers, GET /customers?externalReference=) and
 * charges (POST /payments with billingType UNDEFINED: the payer picks boleto, Pix or card on the
 * invoiceUrl page; GET /payments?externalReference=). The key is never logged nor put in an error.
 */
export function asaasProvider(cfg: { baseUrl: string; apiKey: string }, fetchImpl: typeof fetch = fetch): PaymentProvider {
  async function call<T>(method: 'GET' | 'POST', path: string, body?: object): Promise<T> {
    const res = await fetchImpl(`${cfg.baseUrl}${path}`, {
      method,
      headers: { access_token: cfg.apiKey, 'content-type': 'application/json', 'user-agent': 'fiscal-gateway-billing' },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    if (!res.ok) {
      let why = text.slice(0, 300);
      try {
        const errors = (JSON.parse(text) as { errors?: { code?: string; description?: string }[] }).errors;
        if (errors?.length) why = errors.map((e) => `${e.code ?? ''} ${e.description ?? ''}`.trim()).join('; ');
      } catch {
        // not JSON: the text itself says what happened
      }
      throw new PaymentProviderError(`Asaas ${method} ${path.split('?')[0]} answered ${res.status}: ${why}`, res.status);
    }
    return JSON.parse(text) as T;
  }
  const byRef = (ref: string) => `?externalReference=${encodeURIComponent(ref)}`;
  return {
    name: 'asaas',
    async findOrCreateCustomer(c) {
      const found = await call<AsaasList<{ id: string }>>('GET', `/customers${byRef(c.externalReference)}`);
      if (found.data[0]) return { id: found.data[0].id };
      const made = await call<{ id: string }>('POST', '/customers', {
        name: c.name, cpfCnpj: c.cpfCnpj, email: c.email ?? undefined, externalReference: c.externalReference, notificationDisabled: false,
      });
      return { id: made.id };
    },
    async findOrCreatePayment(p) {
      const found = await call<AsaasList<AsaasPayment>>('GET', `/payments${byRef(p.externalReference)}`);
      const payment = found.data[0] ?? (await call<AsaasPayment>('POST', '/payments', {
        customer: p.customerId, billingType: 'UNDEFINED', value: p.valueCents / 100, dueDate: p.dueDate, description: p.description, externalReference: p.externalReference,
      }));
      return { id: payment.id, invoiceUrl: payment.invoiceUrl ?? null, status: payment.status };
    },
  };
}
