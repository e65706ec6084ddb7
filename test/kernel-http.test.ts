import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, TEST_HEALTH_AUTH } from './support/app.js';
import { ManualClock } from './support/clock.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.app.close());

const sandbox = { authorization: 'Bearer sk_sandbox_public' };

describe('malformed requests never produce a 500', () => {
  it('400 for malformed JSON, 413 for oversized bodies, 415 for a wrong content type', async () => {
    const cases: Array<[string, Record<string, string>, string | Buffer, number, string]> = [
      ['bad json', { 'content-type': 'application/json' }, '{"name":', 400, 'invalid_json'],
      ['empty json', { 'content-type': 'application/json' }, '', 400, 'invalid_json'],
      ['proto', { 'content-type': 'application/json' }, '{"__proto__":{"x":1},"name":"a","scopes":["*"]}', 400, 'invalid_json'],
      ['text', { 'content-type': 'text/plain' }, 'hello', 415, 'unsupported_media_type'],
      ['xml', { 'content-type': 'application/xml' }, '<a/>', 415, 'unsupported_media_type'],
      ['huge', { 'content-type': 'application/json' }, JSON.stringify({ name: 'x'.repeat(2_000_000), scopes: ['*'] }), 413, 'payload_too_large'],
      ['array', { 'content-type': 'application/json' }, '[1,2]', 422, 'validation_error'],
      ['invalid utf8', { 'content-type': 'application/json' }, Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), 422, 'validation_error'],
    ];
    for (const [name, headers, payload, status, code] of cases) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/applications', headers: { ...sandbox, ...headers }, payload });
      expect(res.statusCode, name).toBe(status);
      expect(res.json(), name).toMatchObject({ error: code, request_id: expect.stringMatching(/^req_/) });
    }
  });

  it('names each invalid field in details', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/applications', headers: sandbox, payload: { name: 7, scopes: ['nfce:fly'], extra: 1 } });
    expect(res.statusCode).toBe(422);
    const fields = res.json().details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['name', 'scopes[0]', 'extra']));
  });

  it('unknown routes are 404 in the envelope; X-Request-Id is echoed', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/nope', headers: { ...sandbox, 'x-request-id': 'abc-123' } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['x-request-id']).toBe('abc-123');
    expect(res.json()).toMatchObject({ error: 'not_found', request_id: 'abc-123' });
  });

  it('a path that exists under other methods is 405 with Allow, whether or not the resource exists', async () => {
    for (const url of ['/v1/issuers/iss_nope', '/v1/issuers/iss_nope/', '/v1/issuers/iss_nope?x=1']) {
      const res = await t.app.inject({ method: 'PUT', url, headers: sandbox });
      expect(res.statusCode, url).toBe(405);
      expect(res.json(), url).toMatchObject({ error: 'method_not_allowed', request_id: expect.stringMatching(/^req_/) });
      expect(res.headers.allow, url).toBe('GET, HEAD, PATCH');
    }
    const post = await t.app.inject({ method: 'DELETE', url: '/v1/nfce', headers: sandbox });
    expect(post.statusCode).toBe(405);
    expect(String(post.headers.allow).split(', ')).toContain('POST');
    // A path no route has stays 404, under any method.
    expect((await t.app.inject({ method: 'PUT', url: '/v1/issuers/iss_nope/nothing', headers: sandbox })).statusCode).toBe(404);
  });
});

describe('rate limits (docs/guides/api.md#contract-limits)', () => {
  it('carries the four X-RateLimit headers and answers the 61st request in a minute with 429', async () => {
    const clock = new ManualClock('2026-11-21T12:00:05.000Z');
    const rl = await createTestApp({ clock, env: { RATE_LIMIT_PER_MINUTE: '60' } });
    try {
      for (let i = 1; i <= 60; i++) {
        const res = await rl.app.inject({ method: 'GET', url: '/v1/applications', headers: sandbox, remoteAddress: '10.9.8.7' });
        expect(res.statusCode).toBe(200);
        expect(res.headers['x-ratelimit-limit']).toBe('60');
        expect(res.headers['x-ratelimit-remaining']).toBe(String(60 - i));
        // Sliding window: the whole budget is back when this request leaves the window, 60 s on.
        expect(res.headers['x-ratelimit-reset']).toBe('60');
        expect(res.headers['x-ratelimit-window']).toBe('60');
      }
      const over = await rl.app.inject({ method: 'GET', url: '/v1/applications', headers: sandbox, remoteAddress: '10.9.8.7' });
      expect(over.statusCode).toBe(429);
      expect(over.headers['retry-after']).toBe('60');
      expect(over.json().error).toBe('rate_limited');
      // Another client is counted apart; once the first 60 have left the window it starts afresh.
      expect((await rl.app.inject({ method: 'GET', url: '/v1/applications', headers: sandbox, remoteAddress: '10.9.8.8' })).statusCode).toBe(200);
      clock.advance(60_000);
      expect((await rl.app.inject({ method: 'GET', url: '/v1/applications', headers: sandbox, remoteAddress: '10.9.8.7' })).statusCode).toBe(200);
    } finally {
      await rl.app.close();
    }
  });

  it('counts per API key in production', async () => {
    const prod = await createTestApp({ env: { GATEWAY_ENV: 'production', RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      const a = await prod.newAccount();
      const b = await prod.newAccount();
      for (let i = 0; i < 3; i++) expect((await prod.app.inject({ method: 'GET', url: '/v1/applications', headers: a.auth })).statusCode).toBe(200);
      expect((await prod.app.inject({ method: 'GET', url: '/v1/applications', headers: a.auth })).statusCode).toBe(429);
      expect((await prod.app.inject({ method: 'GET', url: '/v1/applications', headers: b.auth })).statusCode).toBe(200);
    } finally {
      await prod.app.close();
    }
  });
});

describe('health and documentation', () => {
  it('GET /healthz answers without a key', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', ts: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) });
  });

  it('GET /healthz/deep reports each check and 503 when one fails', async () => {
    const ok = await t.app.inject({ method: 'GET', url: '/healthz/deep', headers: TEST_HEALTH_AUTH });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().checks.map((c: { name: string }) => c.name)).toEqual(expect.arrayContaining(['storage', 'migrations', 'key_store', 'authority']));
    expect(ok.json().checks.every((c: { status: string; latency_ms: number }) => c.status === 'ok' && c.latency_ms >= 0)).toBe(true);
    const failing = await createTestApp({ options: { healthChecks: () => [{ name: 'redis', check: async () => { throw new Error('down'); } }] } });
    const res = await failing.app.inject({ method: 'GET', url: '/healthz/deep', headers: TEST_HEALTH_AUTH });
    expect(res.statusCode).toBe(503);
    expect(res.json().checks.find((c: { name: string }) => c.name === 'redis')).toMatchObject({ status: 'fail', error: 'down' });
    await failing.app.close();
  });

  it('serves an OpenAPI 3.0 document that passes an independent validator', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\.0\./);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    await SwaggerParser.validate(structuredClone(doc));
    // every route documents its error answers
    for (const [path, ops] of Object.entries<Record<string, { responses: Record<string, unknown> }>>(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        expect(Object.keys(op.responses), `${method} ${path}`).toContain('500');
      }
    }
    const ui = await t.app.inject({ method: 'GET', url: '/docs' });
    expect([200, 302]).toContain(ui.statusCode);
  });
});
