// Security sweep over EVERY operation of the served OpenAPI document (GET /docs/json), so a route
// added later is swept without editing this file:
//   - public routes answer without a key; every other route answers 401 without one;
//   - the scope each route needs is derived by probing it with one single-scope key per scope
//     (the route config `scope` is not in the document): a key lacking it gets 403 + error envelope;
//   - every route that takes an id answers 404 to account B for account A's record, and changes nothing;
//   - lists, search and the notification stream never show B another account's records;
//   - every operation on another application needs the caller to cover its scopes; every
//     mutating route spelled another way (%-encoded letters) is the same Idempotency-Key scope;
//     every 401 carries the X-RateLimit-* headers (unauthenticated requests are counted too);
//   - secrets (private key, certificate password, CSC, API keys, webhook secret) appear in no log
//     line (pino at trace), no answer but the one-time creation answers, not in the audit log, not
//     in the database.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOG_REDACT } from '../src/app.js';
import { SCOPES } from '../src/infra/identity/scopes.js';
import { parsePfx } from '../src/fiscal/certificate/pfx.js';
import { insertNotification } from '../src/platform/notifications/storage/notification-repository.js';
import { certFile, multipart } from './issuers-harness.js';
import { createTestApp, type TestApp } from './support/app.js';
import { freshBranchCnpj, SP_ISSUER } from './support/nfce-flow.js';
import {
  CERT,
  CERT_PASSWORD,
  dumpDatabase,
  fillPath,
  fragments,
  keyWithScopes,
  logCapture,
  opName,
  ownedResources,
  servedOperations,
  webhookReceiver,
  type Operation,
  type OwnedResources,
} from './support/security-world.js';

const log = logCapture();
const csc = `CSC${randomBytes(14).toString('hex').toUpperCase()}`;
let t: TestApp;
let base: string;
let ops: Operation[];
let a: OwnedResources;
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;

beforeAll(async () => {
  // The logger options of `serve` (src/main.ts), at trace level, into memory.
  t = await createTestApp({
    role: 'all',
    options: { logger: { level: 'trace', redact: { paths: LOG_REDACT, censor: '[redacted]' }, stream: log.stream } },
  });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  ops = await servedOperations(t.app);
  receiver = await webhookReceiver();
  a = await ownedResources(t, { csc, webhookUrl: receiver.url });
}, 60_000);

afterAll(async () => {
  await t?.runtime.close();
  await receiver?.close();
});

/**
 * One request over real HTTP. A stream is read until `streamUntil` says it has what the test waits
 * for (20 s guard), or, for a test that only wants its status and headers, for 300 ms; then dropped.
 */
async function call(method: string, path: string, headers: Record<string, string>, body?: unknown, streamUntil?: (text: string) => boolean) {
  const ctl = new AbortController();
  const res = await fetch(base + path, {
    method,
    headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
    signal: ctl.signal,
  });
  let text = '';
  if ((res.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const reader = res.body!.getReader();
    const stop = setTimeout(() => ctl.abort(), streamUntil ? 20_000 : 300);
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += Buffer.from(value).toString('latin1');
        if (streamUntil?.(text)) {
          ctl.abort();
          break;
        }
      }
    } catch {
      // aborted: the stream stays open by design
    } finally {
      clearTimeout(stop);
    }
  } else {
    text = Buffer.from(await res.arrayBuffer()).toString('latin1');
  }
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) as Record<string, unknown> };
}

function expectEnvelope(res: { status: number; json(): Record<string, unknown> }, code: string, what: string) {
  const body = res.json();
  expect(body.error, `${what}: ${JSON.stringify(body)}`).toBe(code);
  expect(typeof body.message, what).toBe('string');
  expect(body.request_id, what).toMatch(/^req_/);
}

// Routes any valid key may call: reference data that belongs to no account.
const ANY_KEY = new Set(['GET /v1/ufs', 'GET /v1/municipios']);
// Routes that are public by design (no key): liveness and readiness, and the steps of signing in
// Which are counted per address instead.
const PUBLIC = new Set([
  'GET /healthz', 'GET /healthz/deep',
  'POST /v1/auth/signup', 'POST /v1/auth/login', 'POST /v1/auth/login/second-factor', 'POST /v1/auth/refresh',
  'POST /v1/auth/verify-email', 'POST /v1/auth/password/forgot', 'POST /v1/auth/password/reset',
  // Asaas's webhook: no API key, its own token (asaas-access-token; test/billing-payments.test.ts).
  'POST /v1/billing/webhooks/asaas',
  // The API changelog, where a deprecated operation's Link header points (docs/guides/api.md#contract-versioning): public like /docs.
  'GET /changelog.md',
]);
const isSignInStep = (op: Operation) => op.path.startsWith('/v1/auth/');

describe('routes from the served OpenAPI document', () => {
  it('the document lists the routes this sweep relies on (the sweep is not vacuous)', () => {
    const names = ops.map(opName);
    expect(ops.length).toBeGreaterThanOrEqual(38);
    for (const n of ['GET /v1/issuers/{id}', 'POST /v1/nfce/{id}/cancel', 'POST /v1/webhooks/{id}/deliveries/{dlvId}/replay', 'DELETE /v1/applications/{id}', 'POST /v1/notifications/{id}/read', 'GET /v1/audit-log']) {
      expect(names).toContain(n);
    }
  });

  it('public routes need no key; every other route answers 401 without a key or with an unknown one', async () => {
    expect(ops.filter((o) => o.isPublic && !(isSignInStep(o) && !PUBLIC.has(opName(o)))).map(opName).sort()).toEqual([...PUBLIC].sort());
    // Every other public route is a step of signing in (passkey, single sign-on), under /v1/auth/.
    for (const op of ops.filter((o) => o.isPublic && !PUBLIC.has(opName(o)))) expect(isSignInStep(op), opName(op)).toBe(true);
    for (const url of ['/healthz', '/healthz/deep', '/docs/json', '/docs']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect([200, 302], `${url}: ${res.statusCode}`).toContain(res.statusCode);
    }
    for (const op of ops.filter((o) => !o.isPublic)) {
      const path = fillPath(op.path, Object.fromEntries(op.pathParams.map((p) => [p, 'xxx_missing'])));
      for (const headers of <Record<string, string>[]>[{}, { authorization: 'Bearer sk_test_notakeyatall0000000000000000000' }, { authorization: 'Basic Zm9vOmJhcg==' }]) {
        const res = await call(op.method, path, headers);
        expect(res.status, `${opName(op)} with ${JSON.stringify(headers)}`).toBe(401);
        expectEnvelope(res, 'unauthorized', opName(op));
        // Requests without a valid key are counted per IP before authentication.
        for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-ratelimit-window']) expect(res.headers.get(h), `${opName(op)}: ${h} on a 401`).not.toBeNull();
      }
    }
  });

  it('every authenticated route needs a scope (derived per route): a key without it gets 403 with the error envelope', async () => {
    const { accountId } = await t.newAccount('Scope probe');
    const single = SCOPES.filter((s) => s !== '*');
    const keys = new Map<string, { authorization: string }>();
    for (const s of single) keys.set(s, await keyWithScopes(t, accountId, [s]));

    const derived: Record<string, string> = {};
    // Operations a person does (sign-out, their sessions, TOTP): every key, even '*', gets 403.
    const all = await keyWithScopes(t, accountId, ['*']);
    for (const op of ops.filter((o) => o.sessionOnly)) {
      const path = fillPath(op.path, Object.fromEntries(op.pathParams.map((p) => [p, 'xxx_missing'])));
      const res = await call(op.method, path, all, op.method === 'GET' || op.method === 'DELETE' ? undefined : {});
      expect(res.status, `${opName(op)} with a * key`).toBe(403);
      expectEnvelope(res, 'forbidden', opName(op));
    }
    for (const op of ops.filter((o) => !o.isPublic && !o.sessionOnly)) {
      const path = fillPath(op.path, Object.fromEntries(op.pathParams.map((p) => [p, 'xxx_missing'])));
      const covering: string[] = [];
      for (const s of single) {
        const res = await call(op.method, path, keys.get(s)!, op.method === 'GET' || op.method === 'DELETE' ? undefined : {});
        if (res.status === 403) expectEnvelope(res, 'forbidden', `${opName(op)} with ${s}`);
        else covering.push(s);
      }
      if (ANY_KEY.has(opName(op))) {
        expect(covering, `${opName(op)} is reference data: any key`).toEqual(single);
        derived[opName(op)] = '(any key)';
        continue;
      }
      // The covering scopes are exactly one scope, plus `<resource>:write` when it is `<resource>:read`;
      // or, for a record of either family (an inutilization), each family's read scope with its write.
      const needed = neededOf(covering);
      expect(needed, `${opName(op)}: keys that pass: ${covering.join(', ') || 'none'}`).toBeDefined();
      // Reading routes need a read scope, changing ones a write scope.
      expect(needed!.split('|').every((n) => n.endsWith(op.method === 'GET' ? ':read' : ':write')), `${opName(op)} needs ${needed}`).toBe(true);
      derived[opName(op)] = needed!;
    }
    // What only a person does says so in the document (its security lists no API key).
    expect(ops.filter((o) => o.sessionOnly).map(opName)).toEqual(expect.arrayContaining([
      'POST /v1/auth/logout', 'GET /v1/auth/session', 'POST /v1/auth/2fa/disable', 'POST /v1/team/invites/accept', 'POST /v1/team/leave',
      'POST /v1/team/transfer-ownership', 'POST /v1/account/force-cancel',
    ]));
    // The audit:read key is refused everywhere but the audit log and reference data.
    const auditOnly = Object.entries(derived).filter(([, s]) => s === 'audit:read' || s === '(any key)').map(([n]) => n).sort();
    expect(auditOnly).toEqual(['GET /v1/audit-log', ...ANY_KEY].sort());
    // A few anchors, so a wrong derivation cannot pass silently.
    expect(derived['POST /v1/nfce']).toBe('nfce:write');
    expect(derived['GET /v1/issuers/{id}']).toBe('issuers:read');
    expect(derived['POST /v1/issuers/{id}/certificate']).toBe('issuers:write');
    expect(derived['POST /v1/applications']).toBe('applications:write');
    expect(derived['GET /v1/notifications/stream']).toBe('notifications:read');
    expect(derived['GET /v1/team/members']).toBe('members:read');
    expect(derived['PATCH /v1/team/members/{id}/role']).toBe('members:write');
    expect(derived['GET /v1/inutilizations/{id}']).toBe('nfce:read|nfe:read');
  }, 60_000);
});

describe('keys acting on other keys', () => {
  it('every operation on another application refuses a caller whose scopes do not cover the target\'s, and changes nothing', async () => {
    const { accountId } = await t.newAccount('Key vs key');
    const narrow = await keyWithScopes(t, accountId, ['applications:write']);
    const owner = await keyWithScopes(t, accountId, ['*']);
    const target = await call('POST', '/v1/applications', owner, { name: 'broad', scopes: ['*'] });
    expect(target.status).toBe(201);
    const targetId = target.json().id as string;
    const onOther = ops.filter((o) => o.path.startsWith('/v1/applications/{id}'));
    expect(onOther.map(opName)).toEqual(expect.arrayContaining(['DELETE /v1/applications/{id}', 'POST /v1/applications/{id}/rotate']));
    for (const op of onOther) {
      const res = await call(op.method, fillPath(op.path, { id: targetId }), narrow, op.method === 'GET' || op.method === 'DELETE' ? undefined : {});
      if (op.method === 'GET') continue; // reading another key's metadata reveals no key
      expect(res.status, `${opName(op)} by an applications:write key on a * key: ${res.text.slice(0, 200)}`).toBe(403);
      expectEnvelope(res, 'forbidden', opName(op));
    }
    // The broad key was neither revoked nor rotated.
    expect((await call('GET', '/v1/issuers', { authorization: `Bearer ${target.json().key as string}` })).status).toBe(200);
  });
});

describe('one Idempotency-Key, two spellings of a route', () => {
  /** The path with every letter of its fixed segments %-encoded: the router decodes it to the same route. */
  const respelled = (path: string) => path.split('/').map((seg) => (seg.startsWith('{') ? seg : seg.replace(/[a-z]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`))).join('/');

  it('every mutating route: the same key on the respelled path with another body is idempotency_conflict, with the same body a replay', async () => {
    // (Operations only a session may call are swept with sessions in test/people/.)
    const mutating = ops.filter((o) => ['POST', 'PATCH', 'PUT'].includes(o.method) && !o.isPublic && !o.sessionOnly);
    expect(mutating.length).toBeGreaterThanOrEqual(15);
    // An account of its own: its audit entries must not crowd account A's out of the first page.
    const own = await t.newAccount('Respelled routes');
    const issuer = await call('POST', '/v1/issuers', own.auth, { ...SP_ISSUER, cnpj: freshBranchCnpj() });
    expect(issuer.status, issuer.text).toBe(201);
    const issuerId = issuer.json().id as string;
    for (const op of mutating) {
      const ids = Object.fromEntries(op.pathParams.map((p) => [p, op.path.startsWith('/v1/issuers') ? issuerId : 'xxx_missing']));
      const file = randomBytes(64);
      const plain = fillPath(op.path, ids);
      const other = fillPath(respelled(op.path), ids);
      expect(other, opName(op)).not.toBe(plain);
      const key = { ...own.auth, 'idempotency-key': `sweep-${randomBytes(8).toString('hex')}` };
      const send = (url: string, body: unknown) => {
        if (opName(op) !== 'POST /v1/issuers/{id}/certificate') return call(op.method, url, key, body);
        const m = multipart({ password: String((body as { p: string }).p) }, { name: 'pfx', filename: 'a.pfx', content: file });
        return fetch(base + url, { method: 'POST', headers: { ...key, ...m.headers }, body: m.payload }).then(async (r) => {
          const text = await r.text();
          return { status: r.status, headers: r.headers, text, json: () => JSON.parse(text) as Record<string, unknown> };
        });
      };
      const first = await send(plain, { p: 'first body' });
      expect(first.status, `${opName(op)}: ${first.text.slice(0, 200)}`).toBeLessThan(500);
      const conflict = await send(other, { p: 'another body' });
      expect([conflict.status, conflict.json().error], `${opName(op)} respelled ${other}: ${conflict.text.slice(0, 200)}`).toEqual([422, 'idempotency_conflict']);
      const replay = await send(other, { p: 'first body' });
      expect([replay.status, replay.headers.get('idempotency-replay')], `${opName(op)} respelled, same body`).toEqual([first.status, 'true']);
    }
  }, 60_000);
});

describe("another account's records", () => {
  /** A valid body per operation that takes one, so a 404 cannot hide behind a 422. */
  const bodies: Record<string, unknown> = {
    'PATCH /v1/issuers/{id}': { razao_social: 'Empresa Invasora Ltda' },
    'PATCH /v1/issuers/{id}/danfe-settings': { danfeFooterText: 'hijacked' },
    'POST /v1/issuers/{id}/csc': { id_csc: '000002', csc: 'ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ' },
    'PUT /v1/issuers/{id}/technical-responsible': { cnpj: '11222333000181', contact: 'Invasor', email: 'x@attacker.example', phone: '1130000000' },
    'PUT /v1/issuers/{id}/buyer-email': { enabled: true, sender_name: 'Invasor', accountant_email: 'x@attacker.example' },
    'POST /v1/issuers/{id}/inutilization': { serie: 1, numero_inicial: 900, numero_final: 901, justification: 'Falha no sistema de PDV pulou a numeracao' },
    'POST /v1/issuers/{id}/nfe-inutilization': { serie: 1, numero_inicial: 900, numero_final: 901, justification: 'Falha no sistema de faturamento pulou a numeracao' },
    'POST /v1/issuers/{id}/series': { model: 65, series: 7 },
    'PATCH /v1/issuers/{id}/series/{model}/{series}': { next_number: 500, retired: true },
    'POST /v1/nfce/{id}/cancel': { reason: 'Cliente desistiu da compra no caixa' },
    'POST /v1/nfe/{id}/cancel': { reason: 'Cliente desistiu da compra no caixa' },
    'POST /v1/nfe/{id}/cce': { correction: 'Endereco de entrega: Rua A, 1, fundos' },
    'POST /v1/nfe/{id}/reform-events': { type: 'delivery_forecast_update', delivery_date: '2026-12-30' },
    'POST /v1/nfe/{id}/delivery-events': { type: 'proof_cancel', protocol: '891260000000123' },
    'POST /v1/nfe/{id}/manifestation': { type: 'ciencia' },
    'POST /v1/nfse/{id}/cancel': { reason_code: 2, reason: 'Servico nao foi prestado ao tomador' },
    'PATCH /v1/team/members/{id}/role': { role: 'viewer' },
    'PATCH /v1/webhooks/{id}': { enabled: false, url: 'https://attacker.example/hook' },
  };

  it("every route that takes an id answers 404 to account B for account A's record, and changes nothing", async () => {
    const b = await t.newAccount('Account B');
    const params: Record<string, Record<string, string>> = {
      '/v1/applications/{id}': { id: a.applicationId },
      '/v1/issuers/{id}': { id: a.issuerId, model: '65', series: '1' },
      '/v1/nfce/{id}': { id: a.noteId },
      '/v1/nfe/received/{id}': { id: a.receivedId },
      '/v1/nfe/{id}/manifestation': { id: a.receivedId },
      '/v1/nfe/{id}': { id: a.nfeId, eventId: 'evt_none' },
      '/v1/nfse/{id}': { id: a.nfseId },
      '/v1/webhooks/{id}': { id: a.webhookId, dlvId: a.deliveryId },
      '/v1/notifications/{id}': { id: a.notificationId },
      '/v1/team/invites/{id}': { id: a.inviteId },
      '/v1/team/members/{id}': { id: a.memberUserId },
      '/v1/billing/invoices/{id}': { id: a.invoiceId },
      '/v1/inutilizations/{id}': { id: a.inutilizationId },
      '/v1/exports/{id}': { id: a.exportId },
      '/v1/email-bounces/{address}': { address: a.bouncedAddress },
    };
    const withId = ops.filter((o) => o.pathParams.length > 0 && !o.isPublic && !o.sessionOnly);
    expect(withId.length).toBeGreaterThanOrEqual(19);
    const before = await snapshotOfA();
    for (const op of withId) {
      const prefix = Object.keys(params).find((p) => op.path === p || op.path.startsWith(p + '/'));
      expect(prefix, `${opName(op)}: no resource of account A for this route; add one to ownedResources`).toBeDefined();
      const url = fillPath(op.path, params[prefix!]!);
      let res;
      if (opName(op) === 'POST /v1/issuers/{id}/certificate') {
            const body = multipart({ password: CERT_PASSWORD }, { name: 'pfx', filename: 'cert.pfx', content: certFile(CERT) });
        const r = await t.app.inject({ method: 'POST', url, headers: { ...b.auth, ...body.headers }, payload: body.payload });
        res = { status: r.statusCode, headers: new Headers(), text: r.body, json: () => r.json() as Record<string, unknown> };
      } else {
        res = await call(op.method, url, b.auth, bodies[opName(op)] ?? (op.method === 'GET' || op.method === 'DELETE' ? undefined : {}));
      }
      expect(res.status, `${opName(op)} as account B: ${res.text.slice(0, 300)}`).toBe(404);
      expectEnvelope(res, 'not_found', opName(op));
      for (const own of [a.issuerCnpj, a.accessKey, 'Padaria Exemplo', receiver.url]) expect(res.text, opName(op)).not.toContain(own);
    }
    // Account A still sees exactly what it had: nothing was revoked, changed, canceled or replayed.
    expect(await snapshotOfA()).toEqual(before);
    expect((await call('GET', '/v1/issuers', { authorization: `Bearer ${a.applicationKey}` })).status).toBe(200);
  }, 60_000);

  it("lists, the audit log and the notification stream show account B none of account A's records", async () => {
    const b = await t.newAccount('Account B lists');
    const lists = ops.filter((o) => o.method === 'GET' && o.pathParams.length === 0 && !o.isPublic && !o.sessionOnly);
    expect(lists.map(opName)).toEqual(expect.arrayContaining(['GET /v1/issuers', 'GET /v1/nfce', 'GET /v1/webhooks', 'GET /v1/applications', 'GET /v1/notifications', 'GET /v1/audit-log', 'GET /v1/notifications/stream', 'GET /v1/search']));
    const aIds = [a.accountId, a.issuerId, a.noteId, a.nfeId, a.receivedId, a.inutilizationId, a.webhookId, a.deliveryId, a.applicationId, a.notificationId, a.issuerCnpj, a.accessKey, a.inviteId, a.memberUserId, a.bouncedAddress, a.exportId];
    // B's stream is read until it replayed B's own notification, written after A's: by then it has
    // read everything it would ever show B.
    const ofB = await insertNotification(t.db, {
      accountId: b.accountId, type: 'certificate.expiring', title: 'B', body: 'Account B test notification', data: {}, sourceKey: `security-test-b:${randomBytes(8).toString('hex')}`, at: new Date(),
    });
    for (const op of lists) {
      for (const path of withRequiredQuery(op.path)) {
        const res = await call('GET', path, { ...b.auth, ...(op.isStream ? { 'last-event-id': '0' } : {}) }, undefined, op.isStream ? (text) => text.includes(ofB!.id) : undefined);
        if (op.isStream) expect(res.text).toContain(ofB!.id);
        expect(res.status, `${path}: ${res.text.slice(0, 200)}`).toBe(200);
        for (const id of aIds) expect(res.text, `${path} shows B ${id}`).not.toContain(id);
      }
    }
    // A's search finds each of those records (the search sweep above is not vacuous).
    for (const [q, id] of [[a.accessKey, a.noteId], [a.issuerCnpj, a.issuerId], ['Padaria Exemplo', a.issuerId]] as const) {
      expect((await call('GET', `/v1/search?q=${encodeURIComponent(q)}`, a.auth)).text, q).toContain(id);
    }
    // The same lists do show A its records (the check above is not vacuous).
    const mine = await call('GET', '/v1/notifications/stream', { ...a.auth, 'last-event-id': '0' }, undefined, (text) => text.includes(a.notificationId));
    expect(mine.text).toContain(a.notificationId);
    expect((await call('GET', '/v1/issuers', a.auth)).text).toContain(a.issuerId);
    expect((await call('GET', '/v1/audit-log', a.auth)).text).toContain(a.webhookId);
  });
});

/**
 * The requests a list is swept with: the path itself, or, for a list that needs a query (GET
 * /v1/search?q=), one request per thing of account A that B must not find: words, CNPJ, access key, ids.
 */
function withRequiredQuery(path: string): string[] {
  if (path !== '/v1/search') return [path];
  return [a.accessKey, a.issuerCnpj, 'Padaria Exemplo', a.issuerId, a.noteId, a.nfeId, a.accessKey.slice(0, 20)].map((q) => `${path}?q=${encodeURIComponent(q)}`);
}

/** What account A can see of its own records. */
async function snapshotOfA() {
  const get = async (url: string) => {
    const res = await call('GET', url, a.auth);
    expect(res.status, url).toBe(200);
    const body = res.json();
    delete body.updated_at;
    return body;
  };
  return {
    issuer: await get(`/v1/issuers/${a.issuerId}`),
    note: await get(`/v1/nfce/${a.noteId}`),
    nfe: await get(`/v1/nfe/${a.nfeId}`),
    nfse: await get(`/v1/nfse/${a.nfseId}`),
    webhook: await get(`/v1/webhooks/${a.webhookId}`),
    deliveries: (await get(`/v1/webhooks/${a.webhookId}/deliveries`)).data,
    applications: (await get('/v1/applications')).data,
    notifications: (await get('/v1/notifications')).data,
    members: (await get('/v1/team/members')).data,
    invites: (await get('/v1/team/invites')).data,
    bounces: (await get('/v1/email-bounces')).data,
    buyerEmail: await get(`/v1/issuers/${a.issuerId}/buyer-email`),
  };
}

describe('secrets', () => {
  it('no private key, certificate password, CSC, API key or webhook secret in logs, answers, audit log or database', async () => {
    // The rest of a realistic life: rotate the application key, read everything back.
    const rotated = await t.app.inject({ method: 'POST', url: `/v1/applications/${a.applicationId}/rotate`, headers: a.auth });
    expect(rotated.statusCode).toBe(200);
    const newKey = rotated.json().key as string;
    expect(newKey).toMatch(/^sk_/);
    // A wrong certificate password is refused without being echoed.
    const wrongPassword = `senha-errada-${randomBytes(6).toString('hex')}`;
    const wrong = multipart({ password: wrongPassword }, { name: 'pfx', filename: 'cert.pfx', content: certFile(CERT) });
    const refused = await t.app.inject({ method: 'POST', url: `/v1/issuers/${a.issuerId}/certificate`, headers: { ...a.auth, ...wrong.headers }, payload: wrong.payload });
    expect(refused.statusCode).toBe(422);
    a.answers.push({ what: 'wrong certificate password', res: refused });
    const created = new Set([...a.answers.filter((x) => x.what === 'create webhook' || x.what === 'create application').map((x) => x.res.body), rotated.body]);

    const parsed = parsePfx(certFile(CERT), CERT_PASSWORD);
    const keyDer = parsed.privateKey.export({ type: 'pkcs8', format: 'der' });
    const pkcs1 = parsed.privateKey.export({ type: 'pkcs1', format: 'der' });
    const publicCert = parsed.certificateBase64 + parsed.certificatePem.replace(/\n/g, '');
    // The first PEM lines of a private key are its modulus, which the (public) certificate holds too.
    const pemLines = parsed.privateKeyPem.split('\n').filter((l) => l.length === 64 && !publicCert.includes(l)).filter((_, i) => i % 4 === 3);
    expect(pemLines.length).toBeGreaterThanOrEqual(4);
    const apiKeys = [a.applicationKey, newKey, a.auth.authorization.slice('Bearer '.length)];
    const whsecBytes = a.webhookSecret.slice('whsec_'.length);
    const needles: [string, string][] = [
      ['certificate password', CERT_PASSWORD],
      ['wrong certificate password', wrongPassword],
      ['CSC', csc],
      ['CSC (lower case)', csc.toLowerCase()],
      ['PEM header', 'PRIVATE KEY'],
      ...pemLines.map((l): [string, string] => ['private key PEM line', l]),
      ...[...fragments(keyDer), ...fragments(pkcs1), ...fragments(certFile(CERT))].filter((f) => !publicCert.includes(f)).map((f): [string, string] => ['private key DER fragment', f]),
      ...apiKeys.flatMap((k): [string, string][] => [['API key', k], ['API key secret part', k.slice(12)]]),
      ['webhook secret', a.webhookSecret],
      ['webhook secret bytes', whsecBytes],
      ['webhook secret bytes (hex)', Buffer.from(whsecBytes, 'base64').toString('hex')],
    ];
    const found = (text: string) => needles.filter(([, n]) => text.includes(n)).map(([what]) => what);
    // The detector finds each secret where it is known to be.
    expect(found(parsed.privateKeyPem)).toContain('private key PEM line');
    expect(found(`\\x${keyDer.toString('hex')}`)).toContain('private key DER fragment');
    expect(found(JSON.stringify({ pfx: certFile(CERT).toString('base64') }))).toContain('private key DER fragment');
    expect(found([...created].join('\n'))).toEqual(expect.arrayContaining(['API key', 'webhook secret']));

    // Every answer: those of the flow, then every GET of the document on A's records.
    const answers: { what: string; text: string }[] = a.answers.filter((x) => !created.has(x.res.body)).map((x) => ({ what: x.what, text: x.res.body }));
    const ids: Record<string, string> = { id: a.issuerId, dlvId: a.deliveryId, eventId: 'evt_none' };
    for (const op of ops.filter((o) => o.method === 'GET' && !o.isPublic)) {
      const resource = op.path.split('/')[2];
      const id = { applications: a.applicationId, issuers: a.issuerId, nfce: a.noteId, nfe: a.nfeId, webhooks: a.webhookId, notifications: a.notificationId }[resource ?? ''] ?? a.issuerId;
      const url = fillPath(op.path, { ...ids, id });
      const res = await call('GET', url, { ...a.auth, ...(op.isStream ? { 'last-event-id': '0' } : {}) }, undefined, op.isStream ? (text) => text.includes(a.notificationId) : undefined);
      answers.push({ what: `${opName(op)} ${res.status}`, text: res.text });
    }
    expect(answers.map((x) => x.what)).toEqual(expect.arrayContaining(['GET /v1/nfce/{id}/xml 200', 'GET /v1/issuers/{id} 200', 'GET /v1/audit-log 200', 'GET /v1/nfce/{id}/danfe.pdf 200']));
    for (const x of answers) expect(found(x.text), `answer of ${x.what}`).toEqual([]);

    // The audit log, every page.
    let audit = '';
    for (let after = ''; ; ) {
      const page = (await call('GET', `/v1/audit-log?limit=100${after ? `&starting_after=${after}` : ''}`, a.auth)).json() as { data: { id: string }[]; has_more: boolean };
      audit += JSON.stringify(page.data);
      if (!page.has_more) break;
      after = page.data.at(-1)!.id;
    }
    expect(audit).toContain(a.issuerId);
    expect(found(audit), 'audit log').toEqual([]);

    // The logs, at trace level: requests were logged (not vacuous), no secret was.
    const logs = log.text();
    expect(logs).toContain(a.issuerId);
    expect(logs).toContain('"url":"/v1/nfce"');
    // @fastify/multipart logs its options with the request headers at trace level: redacted.
    expect(logs).toContain('Providing options to busboy');
    expect(found(logs), 'logs').toEqual([]);

    // The webhook deliveries carry a signature, never the secret.
    expect(receiver.bodies.length).toBeGreaterThan(0);
    expect(found(receiver.bodies.join('\n')), 'webhook bodies').toEqual([]);

    // The database.
    const dump = await dumpDatabase(t.db);
    expect(dump).toContain(a.issuerId);
    expect(dump).toContain(parsed.serialNumber);
    expect(found(dump), 'database').toEqual([]);
  }, 60_000);
});

/**
 * The scope a route needs from the single-scope keys that pass it: one scope (plus `<r>:write` for
 * `<r>:read`), or alternatives `a:read|b:read` when exactly the read/write pairs of several resources
 * pass (the route's record decides which); undefined for any other set.
 */
function neededOf(covering: string[]): string | undefined {
  if (covering.length === 1) return covering[0];
  const reads = covering.filter((s) => s.endsWith(':read'));
  const paired = reads.length > 0 && covering.length === 2 * reads.length && reads.every((r) => covering.includes(r.replace(':read', ':write')));
  return paired ? reads.sort().join('|') : undefined;
}
