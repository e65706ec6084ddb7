// A TEST DOUBLE of Asaas (docs.asaas.com, API v3), not Asaas: a small HTTP server answering the
// requests the gateway's adapter (src/platform/billing/asaas-provider.ts) makes, with the shapes
// Asaas documents, and building the webhook events Asaas documents, for test/billing-payments.test.ts.
//  - every request must carry the API key in the `access_token` header (else 401, as Asaas);
//  - POST /v3/customers (name and cpfCnpj required), GET /v3/customers?externalReference=;
//  - POST /v3/payments (customer, billingType, value > 0, dueDate required; answers status PENDING and
//    an invoiceUrl), GET /v3/payments?externalReference=;
//  - lists as {object: 'list', hasMore, totalCount, limit, offset, data}; errors as {errors: [{code, description}]}.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export interface AsaasDouble {
  url: string;
  apiKey: string;
  customers: Record<string, unknown>[];
  payments: Record<string, unknown>[];
  /** Requests as received: method, path and the access_token they carried. */
  calls: { method: string; path: string; token: string | undefined }[];
  /** A webhook event as Asaas sends it: `{id, event, dateCreated, payment: {object: 'payment', ...}}`. */
  event(event: string, paymentId: string, id?: string): { id: string; event: string; dateCreated: string; payment: Record<string, unknown> };
  close(): Promise<void>;
}

const hex = (n: number) => randomBytes(n).toString('hex');

export async function startAsaasDouble(): Promise<AsaasDouble> {
  const apiKey = `$aact_test_${hex(16)}`;
  const customers: Record<string, unknown>[] = [];
  const payments: Record<string, unknown>[] = [];
  const calls: AsaasDouble['calls'] = [];
  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const list = (data: unknown[]) => ({ object: 'list', hasMore: false, totalCount: data.length, limit: 10, offset: 0, data });
  const invalid = (res: ServerResponse, description: string) => send(res, 400, { errors: [{ code: 'invalid_action', description }] });
  const body = async (req: IncomingMessage): Promise<Record<string, unknown>> => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
  };

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const token = typeof req.headers.access_token === 'string' ? req.headers.access_token : undefined;
      calls.push({ method: req.method ?? '', path: url.pathname, token });
      if (token !== apiKey) return send(res, 401, { errors: [{ code: 'invalid_access_token', description: 'A chave de API fornecida é inválida' }] });
      const ref = url.searchParams.get('externalReference');
      if (req.method === 'GET' && url.pathname === '/v3/customers') return send(res, 200, list(customers.filter((c) => ref === null || c.externalReference === ref)));
      if (req.method === 'GET' && url.pathname === '/v3/payments') return send(res, 200, list(payments.filter((p) => ref === null || p.externalReference === ref)));
      if (req.method === 'POST' && url.pathname === '/v3/customers') {
        const b = await body(req);
        if (!b.name) return invalid(res, 'O nome do cliente deve ser informado.');
        if (!b.cpfCnpj) return invalid(res, 'O CPF/CNPJ deve ser informado.');
        const c = { object: 'customer', id: `cus_${hex(6)}`, dateCreated: new Date().toISOString().slice(0, 10), ...b, deleted: false };
        customers.push(c);
        return send(res, 200, c);
      }
      if (req.method === 'POST' && url.pathname === '/v3/payments') {
        const b = await body(req);
        if (!customers.some((c) => c.id === b.customer)) return invalid(res, 'Cliente inválido ou não informado.');
        if (!['UNDEFINED', 'BOLETO', 'CREDIT_CARD', 'PIX'].includes(String(b.billingType))) return invalid(res, 'Forma de cobrança inválida.');
        if (!(typeof b.value === 'number' && b.value > 0)) return invalid(res, 'O valor da cobrança deve ser informado.');
        if (!/^\d{4}-\d{2}-\d{2}$/.test(String(b.dueDate))) return invalid(res, 'A data de vencimento deve ser informada.');
        const id = `pay_${hex(6)}`;
        const p = { object: 'payment', id, dateCreated: new Date().toISOString().slice(0, 10), ...b, netValue: b.value, status: 'PENDING', invoiceUrl: `https://sandbox.asaas.com/i/${id.slice(4)}`, deleted: false };
        payments.push(p);
        return send(res, 200, p);
      }
      send(res, 404, { errors: [{ code: 'not_found', description: 'Recurso não encontrado' }] });
    })().catch((err: unknown) => send(res, 500, { errors: [{ code: 'internal', description: String(err) }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/v3`,
    apiKey,
    customers,
    payments,
    calls,
    event(event, paymentId, id = `evt_${hex(16)}&${Date.now()}`) {
      const payment = payments.find((p) => p.id === paymentId) ?? { id: paymentId };
      return { id, event, dateCreated: '2026-12-12 10:00:00', payment: { object: 'payment', ...payment } };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
