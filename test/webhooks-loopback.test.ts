// A sandbox's webhooks could target any loopback port, and the delivery log shows the
// first 1 KB of the answer: on a shared sandbox host, a way to read the host's own services (Redis,
// PostgreSQL, an admin page). Loopback targets are now refused unless WEBHOOKS_ALLOW_LOOPBACK=true (a
// sandbox on one's own machine); the default, a sandbox others can reach, refuses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { resolveWebhookTarget } from '../src/platform/webhooks/url-guard.js';
import { createTestApp, type TestApp } from './support/app.js';

let publicSandbox: TestApp;
let ownMachine: TestApp;

beforeAll(async () => {
  // The test apps allow loopback (test/support/app.ts); this one is configured as a public sandbox is: by default.
  publicSandbox = await createTestApp({ env: { WEBHOOKS_ALLOW_LOOPBACK: '' } });
  ownMachine = await createTestApp({ env: { WEBHOOKS_ALLOW_LOOPBACK: 'true' } });
});
afterAll(async () => {
  await publicSandbox.runtime.close();
  await ownMachine.runtime.close();
});

const LOCAL_SERVICES = ['http://127.0.0.1:6379/', 'http://localhost:5432/', 'http://[::1]:9090/metrics', 'http://127.0.0.2:8080/admin'];

describe('webhook targets on the sandbox host itself', () => {
  it('a sandbox by default refuses every loopback target with 422 on url, saying which setting allows it', async () => {
    const { auth } = await publicSandbox.newAccount();
    for (const url of LOCAL_SERVICES) {
      const res = await publicSandbox.app.inject({ method: 'POST', url: '/v1/webhooks', headers: auth, payload: { url, event_types: ['nfce.authorized'] } });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(422);
      expect(res.json().details).toEqual([expect.objectContaining({ field: 'url', message: expect.stringContaining('WEBHOOKS_ALLOW_LOOPBACK') })]);
    }
    expect((await publicSandbox.app.inject({ method: 'GET', url: '/v1/webhooks', headers: auth })).json().data).toEqual([]);
  });

  it('and refuses at delivery a loopback target stored before (re-checked on every attempt)', async () => {
    const policy = loadConfig({ GATEWAY_ENV: 'sandbox' });
    for (const url of LOCAL_SERVICES) await expect(resolveWebhookTarget(url, policy), url).rejects.toThrow(/loopback|private/);
  });

  it('WEBHOOKS_ALLOW_LOOPBACK=true (a sandbox on your own machine) accepts them', async () => {
    const { auth } = await ownMachine.newAccount();
    const res = await ownMachine.app.inject({ method: 'POST', url: '/v1/webhooks', headers: auth, payload: { url: 'http://127.0.0.1:4242/hooks', event_types: ['nfce.authorized'] } });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('the setting: off by default in the sandbox, loopback names when on, refused in production', () => {
    expect(loadConfig({ GATEWAY_ENV: 'sandbox' }).webhookAllowedHosts).toEqual([]);
    expect(loadConfig({ GATEWAY_ENV: 'sandbox', WEBHOOKS_ALLOW_LOOPBACK: 'true' }).webhookAllowedHosts).toEqual(['127.0.0.1', 'localhost']);
    expect(() => loadConfig({ GATEWAY_ENV: 'production', WEBHOOKS_ALLOW_LOOPBACK: 'true', MASTER_KEY: Buffer.alloc(32, 1).toString('base64') })).toThrow(ConfigError);
    expect(() => loadConfig({ GATEWAY_ENV: 'sandbox', WEBHOOKS_ALLOW_LOOPBACK: 'yes' })).toThrow(/WEBHOOKS_ALLOW_LOOPBACK/);
  });
});
