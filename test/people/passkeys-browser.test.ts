// in a real browser: headless Chromium (playwright-core, /usr/bin/chromium) with a
// CDP virtual authenticator (CTAP2, internal transport, resident keys, user verification) runs
// navigator.credentials.create/get against the gateway listening on loopback. An IP address is not
// a valid RP ID (WebAuthn L3 §5.1.3), so the page is http://localhost:<port> and the RP ID localhost.
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { verifiedUser } from '../support/people.js';

const CHROMIUM = '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
if (!HAVE_CHROMIUM) console.warn(`passkeys-browser: skipped, ${CHROMIUM} is absent (apt-get install chromium; .ci/run installs it)`);

// What a dashboard page does, in plain browser JavaScript (a string: nothing of the test's
// compilation reaches the page). The options travel as JSON, so binary fields are base64url.
const PAGE_SCRIPT = `
window.gw = (() => {
  const fromB64u = (s) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4)), (c) => c.charCodeAt(0));
  const toB64u = (b) => btoa(String.fromCharCode(...new Uint8Array(b))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  const call = async (method, path, body, session) => {
    const headers = session ? { authorization: 'Bearer ' + session } : {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    const r = await fetch(path, { method, credentials: 'omit', headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : null };
  };
  const descriptors = (list) => list && list.map((c) => ({ ...c, id: fromB64u(c.id) }));
  return {
    async register(session, name) {
      const { body: { options } } = await call('POST', '/v1/auth/webauthn/registration/options', {}, session);
      const cred = await navigator.credentials.create({ publicKey: {
        ...options,
        challenge: fromB64u(options.challenge),
        user: { ...options.user, id: fromB64u(options.user.id) },
        excludeCredentials: descriptors(options.excludeCredentials),
      } });
      return call('POST', '/v1/auth/webauthn/registration/verify', {
        id: cred.id, rawId: toB64u(cred.rawId), type: cred.type, name,
        response: {
          clientDataJSON: toB64u(cred.response.clientDataJSON),
          attestationObject: toB64u(cred.response.attestationObject),
          transports: cred.response.getTransports(),
        },
        clientExtensionResults: cred.getClientExtensionResults(),
      }, session);
    },
    async login() {
      const { body: { options } } = await call('POST', '/v1/auth/webauthn/authentication/options', {});
      const cred = await navigator.credentials.get({ publicKey: {
        ...options,
        challenge: fromB64u(options.challenge),
        allowCredentials: descriptors(options.allowCredentials),
      } });
      return call('POST', '/v1/auth/webauthn/authentication/verify', {
        id: cred.id, rawId: toB64u(cred.rawId), type: cred.type,
        response: {
          clientDataJSON: toB64u(cred.response.clientDataJSON),
          authenticatorData: toB64u(cred.response.authenticatorData),
          signature: toB64u(cred.response.signature),
          ...(cred.response.userHandle ? { userHandle: toB64u(cred.response.userHandle) } : {}),
        },
      });
    },
    logout: (session) => call('POST', '/v1/auth/logout', undefined, session),
    me: (session) => call('GET', '/v1/auth/session', undefined, session),
  };
})();
`;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface Answer {
  status: number;
  body: Record<string, unknown> & { session?: { methods: string[]; user_id: string }; session_token?: string; user?: { id: string } };
}

describe.skipIf(!HAVE_CHROMIUM)('passkeys in a real Chromium with a virtual authenticator', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let cdp: CDPSession;
  let authenticatorId: string;
  const run = (expression: string) => page.evaluate(expression) as Promise<Answer>;

  beforeAll(async () => {
    const port = await freePort();
    const origin = `http://localhost:${port}`;
    t = await createTestApp({ env: { WEBAUTHN_RP_ID: 'localhost', WEBAUTHN_ORIGINS: origin, DASHBOARD_ORIGINS: origin } });
    await t.app.listen({ host: '127.0.0.1', port });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    page = await browser.newPage();
    // Before any script of the page: whatever document /docs ends on (redirects included) has gw.
    await page.addInitScript(PAGE_SCRIPT);
    await page.goto(`${origin}/docs`, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction('typeof window.gw === "object"');
    cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    ({ authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    }));
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await t?.app.close();
  });

  it('registers a passkey in a session, signs out, and signs in again with the passkey alone', async () => {
    const user = await verifiedUser(t.app);
    expect(await page.evaluate('window.isSecureContext')).toBe(true);

    const registered = await run(`gw.register(${JSON.stringify(user.session_token)}, 'Chromium')`);
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    expect(registered.body).toMatchObject({ object: 'passkey', name: 'Chromium', transports: ['internal'] });

    // The authenticator keeps a discoverable (resident) credential for RP ID localhost, owned by the user id.
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });
    expect(Buffer.from(credentials[0]!.userHandle!, 'base64').toString('utf8')).toBe(user.session.user_id);

    expect((await run(`gw.logout(${JSON.stringify(user.session_token)})`)).status).toBe(204);
    expect((await run(`gw.me(${JSON.stringify(user.session_token)})`)).status).toBe(401);

    const login = await run('gw.login()');
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    expect(login.body.session).toMatchObject({ user_id: user.session.user_id, methods: ['passkey'] });
    const me = await run(`gw.me(${JSON.stringify(login.body.session_token)})`);
    expect(me.status).toBe(200);
    expect(me.body.user?.id).toBe(user.session.user_id);

    // The gateway stored the counter the authenticator reported at sign-in.
    const stored = await t.db.query<{ counter: number; last_used_at: Date | null }>('SELECT counter, last_used_at FROM webauthn_credentials WHERE user_id = $1', [user.session.user_id]);
    expect(stored.rows).toHaveLength(1);
    expect(stored.rows[0]!.last_used_at).not.toBeNull();
  });
});
