import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { responseHeadersPlugin } from './plugins/response-headers.js';
import { checkDeprecation, deprecationHeaders, markDeprecated, type RouteDeprecation } from './deprecation.js';

const OLD: RouteDeprecation = { since: '2026-12-01', sunset: '2027-03-01', replacement: 'GET /v1/new' };

describe('a deprecated operation', () => {
  it('answers Deprecation (RFC 9745 Date item), Sunset (RFC 8594 HTTP-date) and the changelog Link, errors included', async () => {
    const app = Fastify();
    await app.register(responseHeadersPlugin);
    app.get('/v1/old', { config: { deprecation: OLD } }, async () => ({ ok: true }));
    app.get('/v1/old-failing', { config: { deprecation: OLD } }, async (_req, reply) => reply.code(404).send({ error: 'not_found' }));
    app.get('/v1/current', async () => ({ ok: true }));
    for (const url of ['/v1/old', '/v1/old-failing']) {
      const res = await app.inject({ method: 'GET', url });
      // 2026-12-01T00:00:00Z is 1 796 083 200 s after the epoch.
      expect(res.headers.deprecation).toBe('@1796083200');
      expect(res.headers.sunset).toBe('Mon, 01 Mar 2027 00:00:00 GMT');
      expect(res.headers.link).toBe('</changelog.md>; rel="deprecation"; type="text/markdown"');
    }
    const current = await app.inject({ method: 'GET', url: '/v1/current' });
    expect(current.headers.deprecation).toBeUndefined();
    expect(current.headers.sunset).toBeUndefined();
    await app.close();
  });

  it('is marked in its OpenAPI entry with the dates and the replacement', () => {
    const schema: { deprecated?: boolean; description?: string } = { description: 'Lists things.' };
    markDeprecated(schema, OLD);
    expect(schema.deprecated).toBe(true);
    expect(schema.description).toBe('**Deprecated** since 2026-12-01; stops answering on 2027-03-01. Use GET /v1/new instead (CHANGELOG.md).\n\nLists things.');
  });

  it('cannot be announced with less than 90 days of notice (docs/guides/api.md#contract-versioning)', () => {
    expect(() => checkDeprecation('GET /v1/old', { ...OLD, sunset: '2027-02-28' })).toThrow(/89 days after 2026-12-01; SPEC 9 promises 90/);
    expect(() => checkDeprecation('GET /v1/old', OLD)).not.toThrow();
    expect(() => deprecationHeaders({ ...OLD, since: '1 Dec 2026' })).toThrow(RangeError);
  });
});
