// End to end over HTTP: enrolling a factor is a sensitive action and never a proof;
// every change of factor and every password reset is announced (e-mail and notification); a reset
// suspends the factors added in the 24 hours before it, lists them all, and lets the owner remove
// the intruder's or confirm their own. Passkeys with the software authenticator; manual clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { ManualClock } from '../support/clock.js';
import { bearer, forgotPasswordToken, mailFor, PASSWORD, totpCode, verifiedUser } from '../support/people.js';
import { SoftAuthenticator } from '../support/soft-authenticator.js';

const ORIGIN = 'http://localhost:5173';
const NEW_PASSWORD = 'a brand new passphrase 2026';
const clock = new ManualClock('2026-11-25T12:00:00.000Z');
let t: TestApp;

beforeAll(async () => {
  // A worker: the reset link leaves through a job.
  t = await createTestApp({ clock, role: 'all', env: { WEBAUTHN_RP_ID: 'localhost', WEBAUTHN_ORIGINS: ORIGIN } });
}, 60_000);
afterAll(async () => {
  await t.app.close();
});

type Headers = Record<string, string>;
const post = (url: string, payload?: object, headers: Headers = {}) => t.app.inject({ method: 'POST', url, payload, headers });
const get = (url: string, headers: Headers) => t.app.inject({ method: 'GET', url, headers });
const del = (url: string, headers: Headers) => t.app.inject({ method: 'DELETE', url, headers });

async function register(key: SoftAuthenticator, session: Headers, name: string) {
  const opts = await post('/v1/auth/webauthn/registration/options', undefined, session);
  expect(opts.statusCode, opts.body).toBe(200);
  const res = await post('/v1/auth/webauthn/registration/verify', { ...key.create(opts.json().options), name }, session);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}

async function passkeySignIn(key: SoftAuthenticator) {
  const opts = (await post('/v1/auth/webauthn/authentication/options')).json().options;
  return post('/v1/auth/webauthn/authentication/verify', key.get(opts));
}

async function enableTotp(session: Headers): Promise<string> {
  const setup = await post('/v1/auth/2fa/setup', undefined, session);
  expect(setup.statusCode, setup.body).toBe(200);
  const on = await post('/v1/auth/2fa/verify', { code: totpCode(setup.json().secret, clock.now().getTime()) }, session);
  expect(on.statusCode, on.body).toBe(200);
  return setup.json().secret as string;
}

describe('enrolling a factor is sensitive and never a proof', () => {
  it('a session proven 11 minutes ago can neither start TOTP nor add a passkey; turning TOTP on does not renew its proof', async () => {
    const user = await verifiedUser(t.app);
    const start = clock.now().getTime();
    const stale = (await post('/v1/auth/login', { email: user.email, password: PASSWORD })).json();
    clock.advance(11 * 60_000);
    for (const url of ['/v1/auth/2fa/setup', '/v1/auth/webauthn/registration/options']) {
      const res = await post(url, undefined, bearer(stale));
      expect(res.statusCode, `${url}: ${res.body}`).toBe(403);
      expect(res.json().error).toBe('reauthentication_required');
    }

    // A real proof opens the window; enrolling inside it leaves the proof's time where it was.
    const proof = await post('/v1/auth/reauthenticate', { password: PASSWORD }, bearer(stale));
    expect(proof.statusCode).toBe(200);
    const provenAt = proof.json().authenticated_at as string;
    clock.advance(9 * 60_000);
    await enableTotp(bearer(stale));
    expect((await get('/v1/auth/session', bearer(stale))).json().session).toMatchObject({ authenticated_at: provenAt, methods: ['password'] });
    clock.advance(2 * 60_000);
    const key = await post('/v1/applications', { name: 'POS', scopes: ['*'] }, bearer(stale));
    expect(key.statusCode, key.body).toBe(403);
    expect(key.json().error).toBe('reauthentication_required');

    // The person is told, by e-mail and in the app: what, when, from where, and where to review.
    const mail = await mailFor(t.app, stale.session_token, /TOTP\) ativada/);
    expect(mail).toMatchObject({ to: user.email, subject: 'Segurança da conta: Verificação em duas etapas (TOTP) ativada' });
    expect(mail!.text).toContain('Endereço IP: 127.0.0.1');
    expect(mail!.text).toContain(`${t.config.people.dashboardUrl}/security`);
    expect(mail!.text).toContain(new Date(start + 20 * 60_000).toISOString());
    const inbox = (await get('/v1/notifications?limit=10', bearer(stale))).json().data as { type: string; title: string; body: string }[];
    expect(inbox.find((n) => n.type === 'security.factor_changed')).toMatchObject({ title: 'Verificação em duas etapas (TOTP) ativada', body: expect.stringContaining('127.0.0.1') });
  });

  it('a passkey and a TOTP an intruder added with a hijacked session are suspended by the reset, listed with their dates and removed in the same flow', async () => {
    const victim = await verifiedUser(t.app);
    const laptop = new SoftAuthenticator(ORIGIN);
    const ownAt = clock.now().toISOString();
    const own = await register(laptop, bearer(victim), 'Notebook da Ana');
    clock.advance(3 * 24 * 3600_000);

    // The victim signs in with her passkey; the intruder copies that session within its first minutes.
    const hijacked = (await passkeySignIn(laptop)).json();
    const intruderKey = new SoftAuthenticator(ORIGIN);
    const planted = await register(intruderKey, bearer(hijacked), 'Chave do intruso');
    await enableTotp(bearer(hijacked));
    const addedAt = clock.now().toISOString();
    expect((await mailFor(t.app, hijacked.session_token, /Chave do intruso" adicionada/))!.text).toContain('Endereço IP: 127.0.0.1');

    // Later the same day the victim resets her password.
    clock.advance(30 * 60_000);
    const token = await forgotPasswordToken(t.app, victim.email, hijacked.session_token);
    const reset = await post('/v1/auth/password/reset', { token, password: NEW_PASSWORD });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json()).toMatchObject({ object: 'password_reset', removed_factors: [] });
    expect(reset.json().factors).toEqual([
      { id: own.id, object: 'factor', type: 'passkey', name: 'Notebook da Ana', created_at: ownAt, suspended: false },
      { id: planted.id, object: 'factor', type: 'passkey', name: 'Chave do intruso', created_at: addedAt, suspended: true },
      { id: 'totp', object: 'factor', type: 'totp', name: 'TOTP', created_at: addedAt, suspended: true },
    ]);

    // The intruder is out: the session ended, the planted passkey signs nobody in.
    expect((await get('/v1/auth/session', bearer(hijacked))).statusCode).toBe(401);
    const refused = await passkeySignIn(intruderKey);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().message).toMatch(/suspended/);

    // The victim signs in: her own passkey is asked, not the intruder's TOTP.
    const challenge = (await post('/v1/auth/login', { email: victim.email, password: NEW_PASSWORD })).json();
    expect(challenge).toMatchObject({ object: 'login_challenge', methods: ['passkey'] });
    const opts = (await post('/v1/auth/webauthn/authentication/options', { challenge_token: challenge.challenge_token })).json().options;
    expect(opts.allowCredentials).toHaveLength(1);
    const session = (await post('/v1/auth/webauthn/authentication/verify', { ...laptop.get(opts), challenge_token: challenge.challenge_token })).json();
    const mail = await mailFor(t.app, session.session_token, /Senha redefinida/);
    expect(mail!.text).toMatch(/Todas as sessões abertas foram encerradas/);
    expect(mail!.text).toMatch(/Suspensos até você confirmar.*chave de acesso "Chave do intruso"/);

    expect((await get('/v1/auth/factors', bearer(session))).json().data.filter((f: { suspended: boolean }) => f.suspended)).toHaveLength(2);
    expect((await del(`/v1/auth/factors/${planted.id}`, bearer(session))).statusCode).toBe(204);
    expect((await del('/v1/auth/factors/totp', bearer(session))).statusCode).toBe(204);
    expect((await get('/v1/auth/factors', bearer(session))).json().data.map((f: { id: string }) => f.id)).toEqual([own.id]);
    expect((await post('/v1/auth/login', { email: victim.email, password: NEW_PASSWORD })).json().methods).toEqual(['passkey']);
    expect(await mailFor(t.app, session.session_token, /Chave do intruso" removida/)).toBeDefined();
  });

  it('the owner confirms a passkey of her own that the reset suspended, and it signs in again', async () => {
    const user = await verifiedUser(t.app);
    const phone = new SoftAuthenticator(ORIGIN);
    const mine = await register(phone, bearer(user), 'Celular');
    clock.advance(60_000);
    const token = await forgotPasswordToken(t.app, user.email, user.session_token);
    const reset = await post('/v1/auth/password/reset', { token, password: NEW_PASSWORD });
    expect(reset.json().factors).toMatchObject([{ id: mine.id, suspended: true }]);
    expect((await passkeySignIn(phone)).statusCode).toBe(401);

    // No usable factor left: the new password alone signs in, and that proof confirms the passkey.
    const session = (await post('/v1/auth/login', { email: user.email, password: NEW_PASSWORD })).json();
    expect(session.object).toBe('session');
    const confirmed = await post(`/v1/auth/factors/${mine.id}/confirm`, undefined, bearer(session));
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({ id: mine.id, suspended: false });
    expect((await post(`/v1/auth/factors/${mine.id}/confirm`, undefined, bearer(session))).json().error).toBe('invalid_state');
    expect((await passkeySignIn(phone)).statusCode).toBe(200);
  });

  it('turning TOTP off and removing a passkey are announced like adding them', async () => {
    const user = await verifiedUser(t.app);
    const key = new SoftAuthenticator(ORIGIN);
    const pk = await register(key, bearer(user), 'Chave reserva');
    const secret = await enableTotp(bearer(user));
    clock.advance(31_000); // the next time step: the code that enabled TOTP is spent
    expect((await post('/v1/auth/2fa/disable', { code: totpCode(secret, clock.now().getTime()) }, bearer(user))).statusCode).toBe(200);
    expect((await del(`/v1/auth/webauthn/credentials/${pk.id}`, bearer(user))).statusCode).toBe(204);
    for (const subject of [/Chave reserva" adicionada/, /TOTP\) ativada/, /TOTP\) desativada/, /Chave reserva" removida/]) {
      const mail = await mailFor(t.app, user.session_token, subject);
      expect(mail?.to, String(subject)).toBe(user.email);
      expect(mail!.text).toContain(`${t.config.people.dashboardUrl}/security`);
    }
    const inbox = (await get('/v1/notifications?limit=20', bearer(user))).json().data as { type: string; title: string }[];
    expect(inbox.filter((n) => n.type === 'security.factor_changed').map((n) => n.title).sort()).toEqual([
      'Chave de acesso "Chave reserva" adicionada', 'Chave de acesso "Chave reserva" removida',
      'Verificação em duas etapas (TOTP) ativada', 'Verificação em duas etapas (TOTP) desativada',
    ]);
  });
});
