// Fast fuzz pass over every operation of the served OpenAPI document; the long run is
// `npm run bench:fuzz`. Generators and checks: test/support/fuzz-openapi.ts.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';
import { checkEscapedXml, fire, fuzzContext, metacharSale, operationsOf, requestArb, responseValidator, type FuzzContext, type Operation, type ResponseValidator } from './support/fuzz-openapi.js';

const PER_OPERATION = Number(process.env.FUZZ_PER_OPERATION ?? 10);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);

describe(`OpenAPI fuzz, fast pass (seed ${SEED})`, () => {
  let t: TestApp;
  let ctx: FuzzContext;
  let ops: Operation[];
  let validate: ResponseValidator;

  beforeAll(async () => {
    t = await createTestApp({ role: 'all' });
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json();
    ops = operationsOf(doc);
    validate = responseValidator(doc);
    ctx = await fuzzContext(t);
  }, 60_000);
  afterAll(async () => {
    await t?.runtime.close();
  });

  it('the checker itself catches what it must (a 500, a bare error, a 2xx off its schema)', () => {
    const get = ops.find((o) => o.key === 'GET /v1/issuers/{id}')!;
    expect(validate(get, 500, 'application/json', JSON.stringify({ error: 'internal_error', message: 'x', request_id: 'req_1' }))).toContain('status 500');
    expect(validate(get, 404, 'application/json', JSON.stringify({ message: 'x' })).join()).toMatch(/envelope/);
    expect(validate(get, 404, 'application/json', JSON.stringify({ error: 'validation_error', message: 'x', request_id: 'req_1' })).join()).toMatch(/with status 404/);
    expect(validate(get, 422, 'application/json', JSON.stringify({ error: 'validation_error', message: 'x', request_id: 'req_1', details: [{ field: 'a' }] })).join()).toMatch(/envelope/);
    expect(validate(get, 200, 'application/json', JSON.stringify({ id: 1 })).join()).toMatch(/does not match/);
    expect(validate(get, 404, 'application/json', JSON.stringify({ error: 'not_found', message: 'x', request_id: 'req_1' }))).toEqual([]);
  });

  it(`every operation survives ${PER_OPERATION} generated requests: no 5xx, error envelopes, 2xx bodies match their schemas`, async () => {
    expect(ops.length).toBeGreaterThanOrEqual(38);
    const failures: string[] = [];
    const perOp: Record<string, number> = {};
    const escapes: Array<{ body: unknown; id: string }> = [];
    for (const [i, op] of ops.entries()) {
      const reqs = fc.sample(requestArb(ctx, op, { allowOversized: false }), { numRuns: PER_OPERATION, seed: SEED + i });
      for (const req of reqs) {
        const out = await fire(ctx, op, validate, req);
        perOp[op.key] = (perOp[op.key] ?? 0) + 1;
        if (out.problems.length) failures.push(`${req.method} ${req.url.slice(0, 200)} [${req.kind}] -> ${out.status}: ${out.problems.join('; ')} body=${String(req.payload ?? '').slice(0, 300)}`);
        if (op.key === 'POST /v1/nfce' && req.kind === 'metachars' && out.status < 300 && out.id) escapes.push({ body: req.body, id: out.id });
      }
    }
    expect(Object.keys(perOp)).toHaveLength(ops.length);
    expect(failures).toEqual([]);
    for (const e of escapes.slice(0, 3)) expect(await checkEscapedXml(ctx, e.body, { id: e.id })).toEqual([]);
  }, 120_000);

  it('regressions found by the fuzzer: deep nesting is a 400, a NUL in an id/filter/field is a 404/422 and does not stall the audit log', async () => {
    const h = { ...ctx.auth, 'content-type': 'application/json' };
    const deep = await t.app.inject({ method: 'POST', url: '/v1/applications', headers: { ...h, 'idempotency-key': `fuzz-deep-${SEED}` }, payload: '{"a":'.repeat(5000) + '1' + '}'.repeat(5000) });
    expect([deep.statusCode, deep.json().error]).toEqual([400, 'invalid_json']);
    const nulId = await t.app.inject({ method: 'POST', url: '/v1/webhooks/%00/test', headers: { ...h, 'idempotency-key': `fuzz-nul-${SEED}` }, payload: '"x"' });
    expect([nulId.statusCode, nulId.json().error]).toEqual([404, 'not_found']);
    expect((await t.app.inject({ method: 'GET', url: '/v1/issuers/%00', headers: ctx.auth })).statusCode).toBe(404);
    const nulQuery = await t.app.inject({ method: 'GET', url: '/v1/nfce?external_ref=a%00', headers: ctx.auth });
    expect([nulQuery.statusCode, nulQuery.json().details]).toEqual([422, [{ field: 'query.external_ref', message: 'contains the NUL character (U+0000)' }]]);
    const nulBody = await t.app.inject({ method: 'POST', url: '/v1/issuers', headers: { ...h, 'idempotency-key': `fuzz-nulb-${SEED}` }, payload: '{"razao_social":"a\\u0000"}' });
    expect([nulBody.statusCode, nulBody.json().details?.[0]?.field]).toEqual([422, 'razao_social']);
    // the server still answers (the audit writer was not stuck on a NUL target)
    const after = await t.app.inject({ method: 'DELETE', url: '/v1/webhooks/%00', headers: ctx.auth });
    expect(after.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/v1/audit-log?limit=1', headers: ctx.auth })).statusCode).toBe(200);
  }, 30_000);

  it('regressions found by the fuzzer: a malformed URL, an overlong id and a truncated multipart body get the error envelope, not a 5xx', async () => {
    const badUrl = await t.app.inject({ method: 'GET', url: '/v1/nfce/%E0%A4%A/xml', headers: ctx.auth });
    expect([badUrl.statusCode, badUrl.json().error, badUrl.json().request_id]).toEqual([404, 'not_found', expect.stringMatching(/^req_/)]);
    const long = await t.app.inject({ method: 'DELETE', url: `/v1/applications/${'A'.repeat(300)}`, headers: ctx.auth });
    expect([long.statusCode, long.json().error]).toEqual([404, 'not_found']);
    const truncated = await t.app.inject({
      method: 'POST',
      url: `/v1/issuers/${ctx.issuerId}/certificate`,
      headers: { ...ctx.auth, 'content-type': 'multipart/form-data; boundary=x', 'idempotency-key': `fuzz-mp-${SEED}` },
      payload: '--x\r\nContent-Disposition: form-data; name="pfx"\r\n\r\nabc',
    });
    expect([truncated.statusCode, truncated.json().error]).toEqual([400, 'invalid_request']);
    // bench:fuzz found it: invalid UTF-8 decodes to U+FFFD, outside Latin-1, which xJust refuses
    const inut = await t.app.inject({
      method: 'POST',
      url: `/v1/issuers/${ctx.issuerId}/inutilization`,
      headers: { ...ctx.auth, 'idempotency-key': `fuzz-inut-${SEED}` },
      payload: { serie: 1, numero_inicial: 15, numero_final: 17, justification: 'Falha no sistema de PDV pulou a numeracao \ufffd' },
    });
    expect([inut.statusCode, inut.json().details]).toEqual([422, [{ field: 'justification', message: 'has characters outside Latin-1, which the layout does not accept' }]]);
    // The same class on the cancellation's reason (the fuzzer found it there too, seed 791030).
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/v1/nfce/${ctx.ids.nfce![0]}/cancel`,
      headers: { ...ctx.auth, 'idempotency-key': `fuzz-cancel-${SEED}` },
      payload: { reason: 'Cliente desistiu da compra no caixa \ufffd' },
    });
    expect([cancel.statusCode, cancel.json().details]).toEqual([422, [{ field: 'reason', message: 'has characters outside Latin-1, which the layout does not accept' }]]);
  });

  it('a sale with <&"\' in every free-text field is escaped in the nfeProc, which passes the XSD and xmlsec1', async () => {
    const body = metacharSale(ctx.issuerId, 'fast');
    const res = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: { ...ctx.auth, prefer: 'wait=10' }, payload: body });
    expect(res.statusCode, res.body).toBeLessThan(300);
    const xml = await checkEscapedXml(ctx, body, res.json());
    expect(xml).toEqual([]);
  }, 60_000);
});
