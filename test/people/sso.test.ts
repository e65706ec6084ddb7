// Single sign-on against a real OpenID provider (oidc-provider on 127.0.0.1, one
// client per slot, PKCE required). The browser's part is played by fetch (test/support/oidc-issuer.ts);
// the gateway is called through inject with the callback URL the provider redirected to.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { ManualClock } from '../support/clock.js';
import { startTestIssuer, type Slot, type TestIssuer, type TestUser } from '../support/oidc-issuer.js';
import { bearer, forgotPasswordToken, newEmail, PASSWORD, verifiedUser } from '../support/people.js';

const GATEWAY = 'https://gateway.test';
const DASHBOARD = 'https://dashboard.test';
const clock = new ManualClock('2026-11-25T12:00:00.000Z');
let issuer: TestIssuer;
let t: TestApp;

beforeAll(async () => {
  issuer = await startTestIssuer(GATEWAY);
  // A worker: the reset link of the pre-account takeover test leaves through a job.
  t = await createTestApp({ clock, role: 'all', env: { PUBLIC_BASE_URL: GATEWAY, DASHBOARD_URL: DASHBOARD, ...issuer.env() } });
}, 60_000);
afterAll(async () => {
  await t?.app.close();
  await issuer?.close();
});

const subject = () => `sub-${Math.random().toString(36).slice(2)}`;

function setCookies(headers: Record<string, unknown>): string[] {
  const raw = headers['set-cookie'];
  return raw === undefined ? [] : Array.isArray(raw) ? raw.map(String) : [String(raw)];
}

/** GET .../start: the provider's URL and the value of the flow cookie. */
async function start(slot: Slot, query = '') {
  const r = await t.app.inject({ method: 'GET', url: `/v1/auth/oauth/${slot}/start${query}` });
  expect(r.statusCode, r.body).toBe(302);
  const line = setCookies(r.headers).find((c) => c.startsWith('__Host-oauth='));
  expect(line).toBeDefined();
  return { location: String(r.headers.location), cookie: line!.split(';')[0]!.slice('__Host-oauth='.length), cookieLine: line! };
}

function callback(url: URL, cookie: string | undefined, accept = 'application/json') {
  return t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}`, headers: { accept, ...(cookie !== undefined && { cookie: `__Host-oauth=${cookie}` }) } });
}

/** The whole round trip for a person at the provider: start, sign in there, come back. */
async function signIn(slot: Slot, user: TestUser, query = '') {
  const flow = await start(slot, query);
  issuer.user = user;
  const back = await issuer.authorize(flow.location);
  return { flow, back, res: await callback(back, flow.cookie) };
}

const me = async (token: string) => (await t.app.inject({ method: 'GET', url: '/v1/auth/session', headers: bearer(token) })).json();

describe('single sign-on: the flow', () => {
  it('starts a code flow with PKCE S256, a nonce and a signed state bound to a __Host- cookie', async () => {
    const { location, cookieLine, cookie } = await start('google');
    const url = new URL(location);
    expect(`${url.origin}${url.pathname}`).toBe(`${issuer.url}/auth`);
    expect(url.searchParams.get('client_id')).toBe(issuer.clients.google.id);
    expect(url.searchParams.get('redirect_uri')).toBe(`${GATEWAY}/v1/auth/oauth/google/callback`);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('nonce')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(cookieLine).toMatch(/; Max-Age=600/);
    expect(cookieLine).toMatch(/; Path=\//);
    expect(cookieLine).toMatch(/; HttpOnly/);
    expect(cookieLine).toMatch(/; Secure/);
    expect(cookieLine).toMatch(/; SameSite=Lax/);
    // The nonce travels in the URL; the cookie holds it sealed, not in clear.
    expect(cookie).not.toContain(url.searchParams.get('nonce'));
    expect(Buffer.from(cookie, 'base64url').toString('latin1')).not.toContain(url.searchParams.get('nonce'));
  });

  it('google: a new person with a verified e-mail gets a user, an account they own and an sso session; the next sign-in finds them', async () => {
    const email = newEmail('google');
    const sub = subject();
    const { res } = await signIn('google', { sub, email, email_verified: true });
    expect(res.statusCode, res.body).toBe(200);
    const issued = res.json();
    expect(issued).toMatchObject({ object: 'session', session: { methods: ['sso'] } });
    expect(issued.session_token).toMatch(/^st_/);
    expect(setCookies(res.headers).some((c) => c.startsWith('__Host-session=st_'))).toBe(true);
    expect(setCookies(res.headers).some((c) => /^__Host-oauth=;.*Max-Age=0/.test(c))).toBe(true);
    // A completed sign-in: the browser's device cookie, as after a password or a passkey.
    expect(setCookies(res.headers).some((c) => /^__Host-device=dv_[A-Za-z0-9]{43};.*HttpOnly.*Secure.*SameSite=Strict/.test(c))).toBe(true);
    expect(await me(issued.session_token)).toMatchObject({ role: 'owner', user: { email, email_verified: true } });

    const again = (await signIn('google', { sub, email, email_verified: true })).res;
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().session.user_id).toBe(issued.session.user_id);
    expect(again.json().session.account_id).toBe(issued.session.account_id);
  });

  it('microsoft: without email_verified (as in Entra ID tokens) a new user is created unverified, and the browser lands on return_to', async () => {
    const email = newEmail('microsoft');
    const flow = await start('microsoft', '?return_to=%2Fissuers%3Ftab%3Dall');
    issuer.user = { sub: subject(), email };
    const back = await issuer.authorize(flow.location);
    const res = await callback(back, flow.cookie, 'text/html,application/xhtml+xml,*/*;q=0.8');
    expect(res.statusCode, res.body).toBe(302);
    expect(res.headers.location).toBe(`${DASHBOARD}/issuers?tab=all`);
    const session = setCookies(res.headers).find((c) => c.startsWith('__Host-session='))!.split(';')[0]!.split('=')[1]!;
    expect(await me(session)).toMatchObject({ role: 'owner', user: { email, email_verified: false } });
    // Unverified: the usual confirmation link is on its way and the session reaches only the auth routes.
    const blocked = await t.app.inject({ method: 'GET', url: '/v1/nfce?limit=1', headers: bearer(session) });
    expect(blocked.json().error).toBe('email_not_verified');
    const mail = await t.app.inject({ method: 'GET', url: '/v1/sandbox/mail', headers: bearer(session) });
    expect(mail.json().data.some((m: { subject: string }) => /Confirm/.test(m.subject))).toBe(true);
  });

  it('a verified e-mail links to the existing user with that e-mail', async () => {
    const person = await verifiedUser(t.app);
    const { res } = await signIn('google', { sub: subject(), email: person.email.toUpperCase(), email_verified: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().session).toMatchObject({ user_id: person.session.user_id, account_id: person.session.account_id, methods: ['sso'] });
  });
});

describe('single sign-on: what is refused', () => {
  it('an identity a provider linked to an unconfirmed e-mail is removed when the owner\'s password reset confirms it', async () => {
    // Somebody with their own Entra tenant claims the victim's address (no email_verified): a new, unconfirmed user.
    const email = newEmail('victim');
    const sub = subject();
    const first = await signIn('microsoft', { sub, email });
    expect(first.res.statusCode, first.res.body).toBe(200);
    const squatter = first.res.json();
    // The owner of the address resets the password (the link reaches them, not the squatter).
    const token = await forgotPasswordToken(t.app, email, squatter.session_token);
    const reset = await t.app.inject({ method: 'POST', url: '/v1/auth/password/reset', payload: { token, password: 'the owner chose this 2026' } });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json().removed_factors).toMatchObject([{ id: 'sso:microsoft', type: 'sso', name: 'microsoft' }]);
    expect((await t.app.inject({ method: 'GET', url: '/v1/auth/session', headers: bearer(squatter) })).statusCode).toBe(401);
    // The same identity no longer signs in as that user: it is not linked, and the provider does not confirm the address.
    const again = await signIn('microsoft', { sub, email });
    expect(again.res.statusCode, again.res.body).toBe(403);
    expect(again.res.json().message).toMatch(/does not confirm/);
  });

  it('an unverified e-mail does not link to the existing user with that e-mail', async () => {
    const person = await verifiedUser(t.app);
    const sub = subject();
    const { res } = await signIn('microsoft', { sub, email: person.email, email_verified: false });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().error).toBe('forbidden');
    expect(res.json().message).toMatch(/does not confirm/);
    const linked = await t.db.query('SELECT 1 FROM user_identities WHERE provider = $1 AND subject = $2', ['microsoft', sub]);
    expect(linked.rows).toHaveLength(0);
  });

  it('a wrong state: forged, or another flow\'s state with this browser\'s cookie', async () => {
    const flow = await start('google');
    issuer.user = { sub: subject(), email: newEmail(), email_verified: true };
    const back = await issuer.authorize(flow.location);
    const state = back.searchParams.get('state')!;
    const forged = new URL(back);
    forged.searchParams.set('state', `${state.slice(0, -2)}${state.endsWith('AA') ? 'BB' : 'AA'}`);
    const r1 = await callback(forged, flow.cookie);
    expect(r1.statusCode).toBe(400);
    expect(r1.json()).toMatchObject({ error: 'invalid_token', details: [{ field: 'state' }] });

    const other = await start('google');
    const r2 = await callback(back, other.cookie);
    expect(r2.statusCode).toBe(400);
    expect(r2.json()).toMatchObject({ error: 'invalid_token', details: [{ field: '__Host-oauth', message: 'belongs to another sign-in' }] });

    // A google state presented at the microsoft callback.
    const swapped = new URL(back.href.replace('/google/', '/microsoft/'));
    const r3 = await callback(swapped, flow.cookie);
    expect(r3.json()).toMatchObject({ error: 'invalid_token', details: [{ field: 'state' }] });
    expect(r3.json().message).toMatch(/another provider/);
  });

  it('a replayed state is refused', async () => {
    const { flow, back, res } = await signIn('google', { sub: subject(), email: newEmail(), email_verified: true });
    expect(res.statusCode, res.body).toBe(200);
    const replay = await callback(back, flow.cookie);
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ error: 'invalid_token', details: [{ field: 'state', message: 'already used' }] });
  });

  it('an ID token with another nonce is refused', async () => {
    issuer.tamperNonce = true;
    try {
      const { res } = await signIn('microsoft', { sub: subject(), email: newEmail(), email_verified: true });
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json()).toMatchObject({ error: 'unauthorized', details: [{ field: 'id_token', message: 'nonce does not match' }] });
    } finally {
      issuer.tamperNonce = false;
    }
  });

  it('a callback without the cookie (no PKCE verifier) is refused before any exchange', async () => {
    const flow = await start('google');
    issuer.user = { sub: subject(), email: newEmail(), email_verified: true };
    const back = await issuer.authorize(flow.location);
    const res = await callback(back, undefined);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_token', details: [{ field: '__Host-oauth' }] });
    // A cookie that was tampered with does not open either.
    const tampered = await callback(back, `${flow.cookie.slice(0, -4)}AAAA`);
    expect(tampered.json()).toMatchObject({ error: 'invalid_token', details: [{ field: '__Host-oauth', message: 'was altered or belongs to another provider' }] });
  });

  it('a state older than 10 minutes has expired (manual clock)', async () => {
    const flow = await start('google');
    issuer.user = { sub: subject(), email: newEmail(), email_verified: true };
    const back = await issuer.authorize(flow.location);
    clock.advance(601_000);
    const res = await callback(back, flow.cookie);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_token', details: [{ field: 'state', message: 'has expired' }] });
  });

  it('the provider\'s error, a missing code and a return_to off the dashboard are named', async () => {
    const flow = await start('google');
    const state = new URL(flow.location).searchParams.get('state')!;
    const denied = await callback(new URL(`${GATEWAY}/v1/auth/oauth/google/callback?error=access_denied&state=${state}`), flow.cookie);
    expect(denied.json()).toMatchObject({ error: 'unauthorized', details: [{ field: 'error', message: 'access_denied' }] });
    const noCode = await callback(new URL(`${GATEWAY}/v1/auth/oauth/google/callback?state=${state}`), flow.cookie);
    expect(noCode.json()).toMatchObject({ error: 'validation_error', details: [{ field: 'code' }] });
    for (const bad of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'issuers']) {
      const r = await t.app.inject({ method: 'GET', url: `/v1/auth/oauth/google/start?return_to=${encodeURIComponent(bad)}` });
      expect(r.statusCode, bad).toBe(422);
      expect(r.json().details[0].field).toBe('return_to');
    }
  });
});

describe('require_sso', () => {
  it('refuses a password sign-in into the account; single sign-on still works', async () => {
    const person = await verifiedUser(t.app);
    const patch = await t.app.inject({ method: 'PATCH', url: '/v1/account', headers: bearer(person), payload: { require_sso: true } });
    expect(patch.statusCode, patch.body).toBe(200);
    expect(patch.json().require_sso).toBe(true);
    const login = await t.app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: person.email, password: PASSWORD } });
    expect(login.statusCode).toBe(403);
    expect(login.json().error).toBe('sso_required');
    const { res } = await signIn('google', { sub: subject(), email: person.email, email_verified: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().session.account_id).toBe(person.session.account_id);
  });

  it('a gateway without providers answers 404 for the slots and refuses require_sso', async () => {
    const bare = await createTestApp({ clock, env: { PUBLIC_BASE_URL: GATEWAY } });
    try {
      const r = await bare.app.inject({ method: 'GET', url: '/v1/auth/oauth/microsoft/start' });
      expect(r.statusCode).toBe(404);
      expect(r.json()).toMatchObject({ error: 'not_found', message: 'Single sign-on with Microsoft is not configured' });
      const person = await verifiedUser(bare.app, newEmail('bare'));
      const patch = await bare.app.inject({ method: 'PATCH', url: '/v1/account', headers: bearer(person), payload: { require_sso: true } });
      expect(patch.statusCode).toBe(422);
      expect(patch.json().details[0].field).toBe('require_sso');
    } finally {
      await bare.app.close();
    }
  });
});
