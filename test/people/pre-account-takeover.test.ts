// End to end over HTTP: somebody signs up with another person's e-mail before they
// do. The unconfirmed account can add no factor, key, member or issuer; the real owner's sign-up is
// answered like any other (and they are told by e-mail); their password reset confirms the address
// and removes every session and factor set up before it. Passkeys with the software authenticator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { ManualClock } from '../support/clock.js';
import { bearer, forgotPasswordToken, mailFor, newEmail, PASSWORD, signupUser, totpCode } from '../support/people.js';
import { SoftAuthenticator } from '../support/soft-authenticator.js';

const ORIGIN = 'http://localhost:5173';
const clock = new ManualClock('2026-11-25T12:00:00.000Z');
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock, role: 'all', env: { WEBAUTHN_RP_ID: 'localhost', WEBAUTHN_ORIGINS: ORIGIN } });
}, 60_000);
afterAll(async () => {
  await t.app.close();
});

type Headers = Record<string, string>;
const post = (url: string, payload?: object, headers: Headers = {}) => t.app.inject({ method: 'POST', url, payload, headers });
const get = (url: string, headers: Headers) => t.app.inject({ method: 'GET', url, headers });

/** The keys of an answer, nested objects included: the shape a client sees, not the values. */
function shape(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return typeof v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shape(x)]).sort(([a], [b]) => String(a).localeCompare(String(b))));
}

describe('pre-account takeover', () => {
  it('an account whose e-mail is not confirmed adds no passkey or TOTP, creates no key, invites nobody and creates no issuer', async () => {
    const squatter = await signupUser(t.app, newEmail('victim'));
    const refused = [
      ['POST', '/v1/auth/webauthn/registration/options', undefined],
      ['POST', '/v1/auth/webauthn/registration/verify', {}],
      ['POST', '/v1/auth/2fa/setup', undefined],
      ['POST', '/v1/auth/2fa/verify', { code: '123456' }],
      ['POST', '/v1/applications', { name: 'POS', scopes: ['*'] }],
      ['POST', '/v1/team/invites', { email: newEmail('friend'), role: 'admin' }],
      ['POST', '/v1/issuers', { cnpj: '11222333000181' }],
    ] as const;
    for (const [method, url, payload] of refused) {
      const res = await t.app.inject({ method, url, payload, headers: bearer(squatter) });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(403);
      expect(res.json().error, url).toBe('email_not_verified');
    }
  });

  it('the owner\'s sign-up is answered like a new one, they are told, and their reset removes the squatter\'s passkey, TOTP and sessions', async () => {
    const email = newEmail('ana');
    const squatter = await signupUser(t.app, email);
    // What a release before this one let an unconfirmed account do (the test above shows it is refused
    // now): a passkey and TOTP set up while nobody had proved the address.
    await t.db.query('UPDATE users SET email_verified_at = $2 WHERE id = $1', [squatter.session.user_id, clock.now()]);
    const squatterKey = new SoftAuthenticator(ORIGIN);
    const opts = (await post('/v1/auth/webauthn/registration/options', undefined, bearer(squatter))).json().options;
    expect((await post('/v1/auth/webauthn/registration/verify', squatterKey.create(opts), bearer(squatter))).statusCode).toBe(201);
    const setup = (await post('/v1/auth/2fa/setup', undefined, bearer(squatter))).json();
    expect((await post('/v1/auth/2fa/verify', { code: totpCode(setup.secret, clock.now().getTime()) }, bearer(squatter))).statusCode).toBe(200);
    await t.db.query('UPDATE users SET email_verified_at = NULL WHERE id = $1', [squatter.session.user_id]);
    clock.advance(2 * 24 * 3600_000);
    const squatterSession = (await post('/v1/auth/webauthn/authentication/verify', squatterKey.get((await post('/v1/auth/webauthn/authentication/options')).json().options))).json();

    // The owner signs up: the same status and shape as a new sign-up, and the tokens open nothing.
    const fresh = await post('/v1/auth/signup', { email: newEmail('someone'), password: PASSWORD });
    const owner = await post('/v1/auth/signup', { email: email.toUpperCase(), password: PASSWORD, name: 'Ana' });
    expect(owner.statusCode).toBe(fresh.statusCode);
    expect(shape(owner.json())).toEqual(shape(fresh.json()));
    expect(owner.json().session_token).toMatch(/^st_[A-Za-z0-9]{43}$/);
    expect(owner.headers['set-cookie']).toHaveLength((fresh.headers['set-cookie'] as string[]).length);
    expect((await get('/v1/auth/session', bearer(owner.json()))).statusCode).toBe(401);
    const told = await mailFor(t.app, squatterSession.session_token, /tentou criar uma conta/);
    expect(told).toMatchObject({ to: email, subject: 'Alguém tentou criar uma conta com o seu e-mail' });
    expect(told!.text).toContain('/reset-password');

    // The owner resets the password: that confirms the address, and what came before it is gone.
    const token = await forgotPasswordToken(t.app, email, squatterSession.session_token);
    const reset = await post('/v1/auth/password/reset', { token, password: 'ana chose this one 2026' });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json().factors).toEqual([]);
    expect(reset.json().removed_factors.map((f: { type: string }) => f.type).sort()).toEqual(['passkey', 'totp']);
    expect((await get('/v1/auth/session', bearer(squatterSession))).statusCode).toBe(401);
    expect((await get('/v1/auth/session', bearer(squatter))).statusCode).toBe(401);
    const squatterAgain = await post('/v1/auth/webauthn/authentication/verify', squatterKey.get((await post('/v1/auth/webauthn/authentication/options')).json().options));
    expect(squatterAgain.statusCode).toBe(401);

    // The owner's sign-in is the password alone: no factor of the squatter's is asked.
    const login = await post('/v1/auth/login', { email, password: 'ana chose this one 2026' });
    expect(login.json()).toMatchObject({ object: 'session', session: { methods: ['password'] } });
    const me = (await get('/v1/auth/session', bearer(login.json()))).json();
    expect(me.user).toMatchObject({ email_verified: true, totp_enabled: false, passkeys: 0 });
    expect((await mailFor(t.app, login.json().session_token, /Senha redefinida/))!.text).toMatch(/removemos o que foi cadastrado antes dela/);
  });

  it('POST /v1/auth/password/forgot does the same work for a known and an unknown address: it queues one job, the worker looks the address up', async () => {
    const known = await signupUser(t.app);
    const queued = (email: string) => t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM jobs WHERE kind = 'people.password-reset-mail' AND payload->>'email' = $1", [email.toLowerCase()]);
    for (const email of [known.email, newEmail('nobody')]) {
      const res = await post('/v1/auth/password/forgot', { email });
      expect(res.statusCode).toBe(202);
      expect(res.json()).toEqual({ accepted: true });
      expect((await queued(email)).rows[0]!.n).toBe(1);
    }
  });
});
