// How the gateway serves the dashboard (src/http/dashboard.ts), without a browser: the page for
// every app path with its security headers, the hashed files cached for a year and sent
// compressed, a missing file a 404 (never the page), and a clear 503 when the build has not run.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardRoutes } from '../src/http/dashboard.js';
import { createTestApp, type TestApp } from './support/app.js';
import { PASSWORD_MIN } from '../src/infra/identity/password.js';
import { auth as authTexts } from '../dashboard/src/i18n/pt-BR/auth.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(async () => t?.runtime.close());

describe('the dashboard as served by the gateway', () => {
  it('answers its page for every app path, with a CSP that allows only its own scripts', async () => {
    for (const url of ['/dashboard', '/dashboard/', '/dashboard/documents/nfce?status=rejected', '/dashboard/verify-email?token=evf_x']) {
      const r = await t.app.inject({ method: 'GET', url });
      expect(r.statusCode, url).toBe(200);
      expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(r.body).toContain('<div id="root"></div>');
      expect(r.headers['content-security-policy']).toContain("script-src 'self'");
      expect(r.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(r.headers['cache-control']).toBe('no-cache');
    }
  });

  it('sends the hashed files compressed and cached for a year; a missing one is a 404 envelope', async () => {
    const page = (await t.app.inject({ method: 'GET', url: '/dashboard/' })).body;
    const script = page.match(/src="(\/dashboard\/assets\/index-[^"]+\.js)"/)![1]!;
    const plain = await t.app.inject({ method: 'GET', url: script });
    const br = await t.app.inject({ method: 'GET', url: script, headers: { 'accept-encoding': 'br, gzip' } });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toMatch(/^application\/javascript/);
    expect(br.headers['content-encoding']).toBe('br');
    expect(Number(br.headers['content-length'])).toBeLessThan(Number(plain.headers['content-length']) / 2);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const missing = await t.app.inject({ method: 'GET', url: '/dashboard/assets/index-gone.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: 'not_found' });
  });

  it('says the dashboard is not built when dist/dashboard is absent', async () => {
    const app = Fastify();
    app.setErrorHandler((err: Error & { code?: string; status?: number }, _req, reply) => reply.status(err.status ?? 500).send({ error: err.code, message: err.message }));
    await app.register(async (scope) => dashboardRoutes(scope, join(mkdtempSync(join(tmpdir(), 'fg-no-dashboard-')), 'dashboard')));
    const r = await app.inject({ method: 'GET', url: '/dashboard/issuers' });
    expect(r.statusCode).toBe(503);
    expect(r.json().message).toContain('npm run build');
    await app.close();
  });
});

describe('the dashboard\'s words', () => {
  it('give the password minimum the API applies', () => {
    expect(authTexts.passwordHint).toBe(`Pelo menos ${PASSWORD_MIN} caracteres.`);
  });
});
