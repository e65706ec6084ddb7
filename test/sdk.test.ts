import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, FiscalGatewayError, orThrow, type FiscalGatewayClient } from '../sdk/src/index.js';
import { createTestApp, type TestApp } from './support/app.js';
import { freshBranchCnpj, sale, SP_ISSUER, TEST_CSC } from './support/nfce-flow.js';
import { certFile } from './issuers-harness.js';
import { eventually } from './support/webhook-receiver.js';

// The TypeScript SDK (sdk/) against a real gateway on a port, and its retry rules
// against a local server that fails on purpose.

describe('SDK against the gateway (sandbox)', () => {
  let t: TestApp;
  let client: FiscalGatewayClient;
  let issuerId: string;

  beforeAll(async () => {
    t = await createTestApp({ role: 'all' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const { key } = await t.newAccount('SDK test');
    client = createClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: key });
  });
  afterAll(async () => t.runtime.close());

  it('registers an issuer, uploads its certificate and CSC', async () => {
    const issuer = await orThrow(client.POST('/v1/issuers', { body: { ...SP_ISSUER, ambiente: 'homologacao', regime_tributario: 'simples', cnpj: freshBranchCnpj(), contingency: { mode: 'off' } } }));
    issuerId = issuer.id;
    expect(issuer.razao_social).toBe(SP_ISSUER.razao_social);
    const cert = await client.uploadCertificate(issuerId, { pfx: certFile('novo_cert_cnpj_06157250000116_senha_minhasenha.pfx'), password: 'minhasenha' });
    expect(cert.error).toBeUndefined();
    expect(cert.data?.status).toBe('valid');
    const csc = await client.POST('/v1/issuers/{id}/csc', { params: { path: { id: issuerId } }, body: TEST_CSC });
    expect(csc.error).toBeUndefined();
    expect(csc.response.status).toBeLessThan(300);
  });

  it('issues an NFC-e with Prefer: wait and reads its typed status; a repeat with the key is a replay', async () => {
    const key = `sdk-test-${Date.now()}`;
    const body = sale(issuerId) as never;
    const first = await client.POST('/v1/nfce', { body, prefer: { wait: 10 }, idempotencyKey: key });
    if (first.error) throw first.error;
    expect([201, 202]).toContain(first.response.status);
    expect(first.response.headers.get('preference-applied')).toBe('wait=10');
    const id = first.data.id;
    // A loaded machine may answer 202 after 10 s; the note then settles on its own.
    let note = first.data;
    if (note.status === 'processing') {
      note = await eventually(async () => {
        const now = await orThrow(client.GET('/v1/nfce/{id}', { params: { path: { id } } }));
        return now.status === 'processing' ? null : now;
      }, 20_000);
    }
    expect(note.status).toBe('authorized');
    expect(note.access_key).toMatch(/^\d{44}$/);

    const again = await client.POST('/v1/nfce', { body, idempotencyKey: key });
    expect(again.response.headers.get('idempotency-replay')).toBe('true');
    expect(again.data?.id).toBe(id);
  });

  it('answers a field error as a FiscalGatewayError naming the field', async () => {
    const bad = sale(issuerId);
    bad.items[0]!.ncm = '123';
    const res = await client.POST('/v1/nfce', { body: bad as never });
    expect(res.data).toBeUndefined();
    const err = res.error!;
    expect(err).toBeInstanceOf(FiscalGatewayError);
    expect(err.status).toBe(422);
    expect(err.code).toBe('validation_error');
    expect(err.requestId).toMatch(/^req_/);
    expect(err.details.map((d) => d.field)).toContain('items[0].ncm');
    expect(err.detailFor('items[0].ncm')).toBeTruthy();
    await expect(orThrow(client.GET('/v1/nfce/{id}', { params: { path: { id: 'nfce_doesnotexist000000' } } }))).rejects.toMatchObject({
      name: 'FiscalGatewayError',
      status: 404,
      code: 'not_found',
    });
  });
});

/** A local server answering from a script of handlers, one per request; records what it got. */
async function scriptedServer(script: Array<(req: IncomingMessage, res: ServerResponse) => void>) {
  const seen: Array<{ method: string; key: string | undefined; prefer: string | undefined; body: string }> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method!, key: req.headers['idempotency-key'] as string | undefined, prefer: req.headers.prefer as string | undefined, body: Buffer.concat(chunks).toString() });
      const handler = script[Math.min(seen.length, script.length) - 1]!;
      handler(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}`, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const unavailable = (retryAfter: string) => (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(503, { 'content-type': 'application/json', 'retry-after': retryAfter });
  res.end(JSON.stringify({ error: 'authority_unavailable', message: 'SEFAZ did not answer', request_id: 'req_one' }));
};
const created = (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(201, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ id: 'iss_x', status: 'ok' }));
};
const dropConnection = (req: IncomingMessage) => req.socket.destroy();

describe('SDK retries', () => {
  const servers: Array<{ close(): Promise<void> }> = [];
  afterAll(async () => Promise.all(servers.map((s) => s.close())));
  const serve = async (...script: Array<(req: IncomingMessage, res: ServerResponse) => void>) => {
    const s = await scriptedServer(script);
    servers.push(s);
    return s;
  };

  it('repeats a POST after 503 with the same Idempotency-Key and body, after Retry-After', async () => {
    const s = await serve(unavailable('0'), created);
    const client = createClient({ baseUrl: s.baseUrl, apiKey: 'sk_test' });
    const res = await client.POST('/v1/issuers', { body: { ...SP_ISSUER } as never, prefer: { wait: 3 } });
    expect(res.error).toBeUndefined();
    expect(res.response.status).toBe(201);
    expect(s.seen).toHaveLength(2);
    expect(s.seen[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(s.seen[1]!.key).toBe(s.seen[0]!.key);
    expect(s.seen[1]!.body).toBe(s.seen[0]!.body);
    expect(s.seen[0]!.prefer).toBe('wait=3');
  });

  it('repeats a POST the gateway still runs under its key (409 idempotency_in_progress)', async () => {
    const inProgress = (_req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(409, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'idempotency_in_progress', message: 'still running', request_id: 'req_two' }));
    };
    const conflict = (_req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(409, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'invalid_state', message: 'already canceled', request_id: 'req_three' }));
    };
    const s = await serve(inProgress, created);
    const client = createClient({ baseUrl: s.baseUrl, apiKey: 'sk_test', retries: { retries: 2, baseDelayMs: 1 } });
    expect((await client.POST('/v1/issuers', { body: { ...SP_ISSUER } as never })).response.status).toBe(201);
    expect(s.seen).toHaveLength(2);
    // Any other 409 is the answer.
    const other = await serve(conflict, created);
    const res = await createClient({ baseUrl: other.baseUrl, apiKey: 'sk_test', retries: { retries: 2, baseDelayMs: 1 } }).POST('/v1/issuers', { body: { ...SP_ISSUER } as never });
    expect(res.error?.code).toBe('invalid_state');
    expect(other.seen).toHaveLength(1);
  });

  it('repeats a POST whose connection dropped, with its key', async () => {
    const s = await serve(dropConnection, created);
    const client = createClient({ baseUrl: s.baseUrl, apiKey: 'sk_test', retries: { retries: 2, baseDelayMs: 1 } });
    const res = await client.POST('/v1/issuers', { body: { ...SP_ISSUER } as never, idempotencyKey: 'order-4711' });
    expect(res.response.status).toBe(201);
    expect(s.seen.map((r) => r.key)).toEqual(['order-4711', 'order-4711']);
  });

  it('never repeats a POST sent without a key: 503 is answered, a dropped connection is thrown', async () => {
    const s = await serve(unavailable('0'), created);
    const client = createClient({ baseUrl: s.baseUrl, apiKey: 'sk_test', retries: { retries: 3, baseDelayMs: 1 } });
    const res = await client.POST('/v1/issuers', { body: { ...SP_ISSUER } as never, idempotencyKey: false });
    expect(s.seen).toHaveLength(1);
    expect(s.seen[0]!.key).toBeUndefined();
    expect(res.error).toMatchObject({ status: 503, code: 'authority_unavailable', request_id: 'req_one', retryAfter: 0 });

    const dropped = await serve(dropConnection, created);
    const other = createClient({ baseUrl: dropped.baseUrl, apiKey: 'sk_test', retries: { retries: 3, baseDelayMs: 1 } });
    await expect(other.POST('/v1/issuers', { body: { ...SP_ISSUER } as never, idempotencyKey: false })).rejects.toMatchObject({ status: 0, code: 'network_error' });
    expect(dropped.seen).toHaveLength(1);
  });

  it('sends once with retries off, and returns a 429 whose Retry-After is beyond the wait allowed', async () => {
    const s = await serve(unavailable('0'), created);
    const client = createClient({ baseUrl: s.baseUrl, apiKey: 'sk_test', retries: 0 });
    const res = await client.POST('/v1/issuers', { body: { ...SP_ISSUER } as never });
    expect(res.error?.status).toBe(503);
    expect(s.seen).toHaveLength(1);

    const slow = await serve(unavailable('120'), created);
    const patient = createClient({ baseUrl: slow.baseUrl, apiKey: 'sk_test', retries: { retries: 2, maxDelayMs: 5_000 } });
    const late = await patient.GET('/v1/issuers');
    expect(late.error?.retryAfter).toBe(120);
    expect(slow.seen).toHaveLength(1);
  });

  it('repeats a GET after a dropped connection and gives up after the retries allowed', async () => {
    const s = await serve(dropConnection, dropConnection, dropConnection);
    const client = createClient({ baseUrl: s.baseUrl, apiKey: 'sk_test', retries: { retries: 2, baseDelayMs: 1 } });
    await expect(client.GET('/v1/issuers')).rejects.toBeInstanceOf(FiscalGatewayError);
    expect(s.seen.map((r) => r.method)).toEqual(['GET', 'GET', 'GET']);
    expect(s.seen[0]!.key).toBeUndefined();
  });
});
