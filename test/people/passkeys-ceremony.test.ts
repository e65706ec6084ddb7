// Passkeys, through HTTP against the real app without a browser: a software
// authenticator (test/support/soft-authenticator.ts) plays the browser and the authenticator, so the
// test can also play a phishing origin, a replay and a cloned authenticator. Manual clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { ManualClock } from '../support/clock.js';
import { bearer, PASSWORD, signupUser, verifiedUser } from '../support/people.js';
import { SoftAuthenticator } from '../support/soft-authenticator.js';

const ORIGIN = 'http://localhost:5173';
const clock = new ManualClock('2026-11-25T12:00:00.000Z');
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock, env: { WEBAUTHN_RP_ID: 'localhost', WEBAUTHN_ORIGINS: ORIGIN } });
}, 60_000);
afterAll(async () => {
  await t.app.close();
});

type Headers = Record<string, string>;
const post = (url: string, payload?: object, headers: Headers = {}) => t.app.inject({ method: 'POST', url, payload, headers });
const get = (url: string, headers: Headers) => t.app.inject({ method: 'GET', url, headers });

/** Options -> create -> verify, as the dashboard would; answers the stored passkey. */
async function register(key: SoftAuthenticator, session: Headers, name?: string) {
  const opts = await post('/v1/auth/webauthn/registration/options', undefined, session);
  expect(opts.statusCode).toBe(200);
  const res = await post('/v1/auth/webauthn/registration/verify', { ...key.create(opts.json().options), ...(name ? { name } : {}) }, session);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function loginOptions(body?: object) {
  const res = await post('/v1/auth/webauthn/authentication/options', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().options;
}

/** A user with a verified e-mail, a password and one passkey on `key`. */
async function userWithPasskey() {
  const user = await verifiedUser(t.app);
  const key = new SoftAuthenticator(ORIGIN);
  await register(key, bearer(user));
  return { user, key };
}

describe('passkeys without a browser', () => {
  it('registers two passkeys for one user, discoverable, with the second excluding the first', async () => {
    const user = await verifiedUser(t.app);
    const key = new SoftAuthenticator(ORIGIN);
    const opts = (await post('/v1/auth/webauthn/registration/options', undefined, bearer(user))).json();
    expect(opts.object).toBe('passkey_registration_options');
    expect(opts.options).toMatchObject({
      rp: { id: 'localhost', name: 'Fiscal gateway' },
      user: { name: user.email },
      attestation: 'none',
      excludeCredentials: [],
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    const first = key.create(opts.options);
    const laptop = await post('/v1/auth/webauthn/registration/verify', { ...first, name: 'Laptop' }, bearer(user));
    expect(laptop.statusCode, laptop.body).toBe(201);
    expect(laptop.json()).toMatchObject({ object: 'passkey', name: 'Laptop', transports: ['internal'], device_type: 'singleDevice', backed_up: false, last_used_at: null });
    expect(laptop.json().id).toMatch(/^pky_[A-Za-z0-9]{20}$/);
    // The same response again: its challenge is spent.
    expect((await post('/v1/auth/webauthn/registration/verify', first, bearer(user))).json().error).toBe('invalid_token');

    clock.advance(60_000);
    const second = (await post('/v1/auth/webauthn/registration/options', undefined, bearer(user))).json().options;
    expect(second.excludeCredentials.map((c: { id: string }) => c.id)).toEqual([first.id]);
    // The laptop's authenticator holds an excluded credential: it refuses (WebAuthn L3 §6.3.2 step 3); a phone registers.
    expect(() => key.create(second)).toThrow(/InvalidStateError/);
    const phone = await post('/v1/auth/webauthn/registration/verify', new SoftAuthenticator(ORIGIN).create(second), bearer(user));
    expect(phone.statusCode).toBe(201);
    expect(phone.json().name).toBe('Passkey 2026-11-25');

    // Options are bound to the session that asked: another session of the same user cannot finish them.
    const elsewhere = (await post('/v1/auth/webauthn/authentication/verify', key.get(await loginOptions()))).json();
    expect(elsewhere.session.id).not.toBe(user.session.id);
    const foreignOpts = (await post('/v1/auth/webauthn/registration/options', undefined, bearer(user))).json().options;
    expect((await post('/v1/auth/webauthn/registration/verify', new SoftAuthenticator(ORIGIN).create(foreignOpts), bearer(elsewhere))).json().error).toBe('invalid_token');

    const list = (await get('/v1/auth/webauthn/credentials', bearer(user))).json();
    expect(list.data.map((p: { name: string }) => p.name)).toEqual(['Laptop', 'Passkey 2026-11-25']);
    expect(JSON.stringify(list)).not.toMatch(/public_key|credential_id/);
    expect((await get('/v1/auth/session', bearer(user))).json().user.passkeys).toBe(2);
    // An API key is not a person: 403.
    const { auth } = await t.newAccount();
    expect((await post('/v1/auth/webauthn/registration/options', undefined, auth)).statusCode).toBe(403);
  });

  it('signs in with a passkey alone (discoverable), once per challenge', async () => {
    const { user, key } = await userWithPasskey();
    const options = await loginOptions();
    expect(options.userVerification).toBe('required');
    expect(options.allowCredentials).toBeUndefined();
    const assertion = key.get(options);
    const res = await post('/v1/auth/webauthn/authentication/verify', assertion);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().session).toMatchObject({ user_id: user.session.user_id, account_id: user.session.account_id, methods: ['passkey'] });
    expect(String(res.headers['set-cookie'])).toMatch(/__Host-session=st_/);
    expect((await get('/v1/auth/session', bearer(res.json()))).statusCode).toBe(200);
    const used = (await get('/v1/auth/webauthn/credentials', bearer(res.json()))).json().data[0];
    expect(used.last_used_at).toBe(clock.now().toISOString());

    // Replayed: the challenge was spent by the first verification.
    const replay = await post('/v1/auth/webauthn/authentication/verify', assertion);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error).toBe('invalid_token');
    // Without user verification a passkey alone is one factor: refused.
    const unverified = await post('/v1/auth/webauthn/authentication/verify', key.get(await loginOptions(), { userVerified: false }));
    expect(unverified.statusCode).toBe(401);
    // WebAuthn L3 §7.2 step 6: nobody was identified before a discoverable sign-in, so the user handle must say who.
    const anonymous = key.get(await loginOptions());
    const noHandle = await post('/v1/auth/webauthn/authentication/verify', { ...anonymous, response: { ...anonymous.response, userHandle: undefined } });
    expect(noHandle.statusCode).toBe(401);
    const otherHandle = key.get(await loginOptions());
    const forged = await post('/v1/auth/webauthn/authentication/verify', { ...otherHandle, response: { ...otherHandle.response, userHandle: Buffer.from('usr_someoneelse').toString('base64url') } });
    expect(forged.json().message).toMatch(/user handle does not match/);
    // Options older than five minutes are dead.
    const stale = await loginOptions();
    clock.advance(301_000);
    expect((await post('/v1/auth/webauthn/authentication/verify', key.get(stale))).json().error).toBe('invalid_token');
  });

  it('spends a challenge once even when two verifications race', async () => {
    const { key } = await userWithPasskey();
    const assertion = key.get(await loginOptions());
    const answers = await Promise.all([1, 2].map(() => post('/v1/auth/webauthn/authentication/verify', assertion)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
  });

  it('refuses an assertion made on another origin (phishing page)', async () => {
    const { key } = await userWithPasskey();
    const res = await post('/v1/auth/webauthn/authentication/verify', key.get(await loginOptions(), { origin: 'https://login-fiscal-gateway.example' }));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'unauthorized', details: [{ field: 'response', message: 'it was made for another origin' }] });
  });

  it('refuses a signature counter that does not grow (a cloned authenticator)', async () => {
    const { key } = await userWithPasskey();
    expect((await post('/v1/auth/webauthn/authentication/verify', key.get(await loginOptions(), { counter: 5 }))).statusCode).toBe(200);
    for (const counter of [3, 5]) {
      const res = await post('/v1/auth/webauthn/authentication/verify', key.get(await loginOptions(), { counter }));
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toMatch(/counter did not grow/);
    }
    const stored = await t.db.query<{ counter: number }>('SELECT counter FROM webauthn_credentials WHERE credential_id = $1', [key.get(await loginOptions()).id]);
    expect(Number(stored.rows[0]!.counter)).toBe(5);
  });

  it('answers a password sign-in\'s challenge as the second factor', async () => {
    const { user, key } = await userWithPasskey();
    await register(new SoftAuthenticator(ORIGIN), bearer(user), 'Phone');
    const challenged = (await post('/v1/auth/login', { email: user.email, password: PASSWORD })).json();
    expect(challenged).toMatchObject({ object: 'login_challenge', methods: ['passkey'] });
    const options = await loginOptions({ challenge_token: challenged.challenge_token });
    expect(options.allowCredentials).toHaveLength(2);
    const assertion = key.get(options);
    const missing = await post('/v1/auth/webauthn/authentication/verify', assertion);
    expect(missing.json()).toMatchObject({ error: 'validation_error', details: [{ field: 'challenge_token' }] });
    // That attempt spent the passkey challenge: new options, and this time with the token.
    const res = await post('/v1/auth/webauthn/authentication/verify', { ...key.get(await loginOptions({ challenge_token: challenged.challenge_token })), challenge_token: challenged.challenge_token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().session.methods).toEqual(['password', 'passkey']);
    // The sign-in challenge is spent too.
    expect((await post('/v1/auth/webauthn/authentication/options', { challenge_token: challenged.challenge_token })).json().error).toBe('invalid_token');
    // Another user's passkey does not answer this user's challenge.
    const other = await userWithPasskey();
    const again = (await post('/v1/auth/login', { email: user.email, password: PASSWORD })).json();
    const opts = await loginOptions({ challenge_token: again.challenge_token });
    const foreign = other.key.get({ ...opts, allowCredentials: undefined });
    expect((await post('/v1/auth/webauthn/authentication/verify', { ...foreign, challenge_token: again.challenge_token })).statusCode).toBe(401);
  });

  it('removing a passkey needs a recent proof: 403 after ten minutes, then a passkey step-up', async () => {
    const { user, key } = await userWithPasskey();
    const session = (await post('/v1/auth/webauthn/authentication/verify', key.get(await loginOptions()))).json();
    await register(new SoftAuthenticator(ORIGIN), bearer(session), 'Spare');
    const [, spare] = (await get('/v1/auth/webauthn/credentials', bearer(session))).json().data;
    clock.advance(11 * 60_000);
    const refused = await t.app.inject({ method: 'DELETE', url: `/v1/auth/webauthn/credentials/${spare.id}`, headers: bearer(session) });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('reauthentication_required');

    const opts = (await post('/v1/auth/webauthn/reauthentication/options', undefined, bearer(session))).json().options;
    expect(opts.allowCredentials).toHaveLength(2);
    const stepped = await post('/v1/auth/webauthn/reauthentication/verify', key.get(opts), bearer(session));
    expect(stepped.statusCode, stepped.body).toBe(200);
    expect(stepped.json()).toMatchObject({ authenticated_at: clock.now().toISOString(), methods: ['passkey'] });
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/auth/webauthn/credentials/${spare.id}`, headers: bearer(session) })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/auth/webauthn/credentials/${spare.id}`, headers: bearer(session) })).statusCode).toBe(404);
    expect((await get('/v1/auth/webauthn/credentials', bearer(user))).json().data).toHaveLength(1);
  });

  it('an unconfirmed e-mail adds no passkey; one added before gets a restricted session; an account that requires single sign-on refuses', async () => {
    const fresh = await signupUser(t.app);
    const refused = await post('/v1/auth/webauthn/registration/options', undefined, bearer(fresh));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('email_not_verified');
    // A passkey from before that rule (the e-mail confirmed in the database for the ceremony, then not).
    await t.db.query('UPDATE users SET email_verified_at = now() WHERE id = $1', [fresh.session.user_id]);
    const key = new SoftAuthenticator(ORIGIN);
    await register(key, bearer(fresh));
    await t.db.query('UPDATE users SET email_verified_at = NULL WHERE id = $1', [fresh.session.user_id]);
    const res = await post('/v1/auth/webauthn/authentication/verify', key.get(await loginOptions()));
    expect(res.statusCode).toBe(200);
    expect((await get('/v1/nfce?limit=1', bearer(res.json()))).json().error).toBe('email_not_verified');
    expect((await get('/v1/auth/session', bearer(res.json()))).json().user.email_verified).toBe(false);

    await t.db.query('UPDATE accounts SET require_sso = true WHERE id = $1', [fresh.session.account_id]);
    const sso = await post('/v1/auth/webauthn/authentication/verify', key.get(await loginOptions()));
    expect(sso.statusCode).toBe(403);
    expect(sso.json().error).toBe('sso_required');
  });

  it('bounds and checks the bodies', async () => {
    const big = await post('/v1/auth/webauthn/authentication/verify', { id: 'a', rawId: 'a', type: 'public-key', response: { clientDataJSON: 'x'.repeat(5000), authenticatorData: 'a', signature: 'a' } });
    expect(big.statusCode).toBe(422);
    expect(big.json().details[0].field).toBe('response.clientDataJSON');
    const junk = await post('/v1/auth/webauthn/authentication/verify', { id: 'a', rawId: 'a', type: 'public-key', response: { clientDataJSON: 'bm90IGpzb24', authenticatorData: 'a', signature: 'a' } });
    expect(junk.json()).toMatchObject({ error: 'validation_error', details: [{ field: 'response.clientDataJSON' }] });
    expect((await post('/v1/auth/webauthn/authentication/options', { challenge_token: 'mfa_nope' })).json().error).toBe('invalid_token');
  });
});
