// "done when", first point: signup -> verify e-mail (link from the captured mail) -> login
// -> TOTP setup -> logout -> login with TOTP -> recovery code -> refresh rotation -> reuse of an old
// refresh token revokes the family; all through HTTP against the real app, on a manual clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { ManualClock } from '../support/clock.js';
import { bearer, newEmail, PASSWORD, signupUser, tokenFromMail, totpCode } from '../support/people.js';

const clock = new ManualClock('2026-11-25T12:00:00.000Z');
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock });
}, 60_000);
afterAll(async () => {
  await t.app.close();
});

const post = (url: string, payload?: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload, headers });
const get = (url: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url, headers });

describe('a person signs up, verifies, signs in with TOTP and keeps a session alive', () => {
  it('walks the whole flow', async () => {
    const email = newEmail('ana');
    const signed = await signupUser(t.app, email);
    expect(signed.session_token).toMatch(/^st_[A-Za-z0-9]{43}$/);
    expect(signed.refresh_token).toMatch(/^rt_[A-Za-z0-9]{43}$/);

    // Before the e-mail is confirmed the session reaches the account and the mail, nothing else.
    expect((await get('/v1/account', bearer(signed))).statusCode).toBe(200);
    const blocked = await get('/v1/nfce?limit=1', bearer(signed));
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().error).toBe('email_not_verified');

    const verifyToken = await tokenFromMail(t.app, signed.session_token, /Confirme seu endereço de e-mail/, 'evf');
    const verified = await post('/v1/auth/verify-email', { token: verifyToken });
    expect(verified.statusCode).toBe(200);
    expect(verified.json().email).toBe(email);
    // The link works once.
    expect((await post('/v1/auth/verify-email', { token: verifyToken })).json().error).toBe('invalid_token');
    expect((await get('/v1/nfce?limit=1', bearer(signed))).statusCode).toBe(200);

    // Sign in with the password: a session, and the owner's role on the new account.
    const login = await post('/v1/auth/login', { email: email.toUpperCase(), password: PASSWORD });
    expect(login.statusCode, login.body).toBe(200);
    const first = login.json();
    expect(first.object).toBe('session');
    const me = (await get('/v1/auth/session', bearer(first))).json();
    expect(me).toMatchObject({ role: 'owner', user: { email, email_verified: true, totp_enabled: false } });

    // TOTP: setup answers the secret, an otpauth URI and a QR code; a first code enables it.
    const setup = await post('/v1/auth/2fa/setup', undefined, bearer(first));
    expect(setup.statusCode).toBe(200);
    const { secret, otpauth_uri, qr_code } = setup.json();
    expect(otpauth_uri).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    expect(qr_code).toMatch(/^data:image\/png;base64,/);
    expect((await post('/v1/auth/2fa/verify', { code: '000000' === totpCode(secret, clock.now().getTime()) ? '111111' : '000000' }, bearer(first))).statusCode).toBe(422);
    const enabled = await post('/v1/auth/2fa/verify', { code: totpCode(secret, clock.now().getTime()) }, bearer(first));
    expect(enabled.statusCode).toBe(200);
    const recovery: string[] = enabled.json().recovery_codes;
    expect(recovery).toHaveLength(10);
    expect(new Set(recovery).size).toBe(10);

    // Logout revokes the session.
    expect((await post('/v1/auth/logout', undefined, bearer(first))).statusCode).toBe(204);
    expect((await get('/v1/auth/session', bearer(first))).statusCode).toBe(401);

    // Sign in again: the password alone now gets a challenge.
    clock.advance(31_000); // the next time step: the code used to enable TOTP is spent
    const challenged = (await post('/v1/auth/login', { email, password: PASSWORD })).json();
    expect(challenged).toMatchObject({ object: 'login_challenge', methods: ['totp', 'recovery_code'] });
    const code = totpCode(secret, clock.now().getTime());
    const withTotp = await post('/v1/auth/login/second-factor', { challenge_token: challenged.challenge_token, code });
    expect(withTotp.statusCode).toBe(200);
    expect(withTotp.json().session.methods).toEqual(['password', 'totp']);
    // The challenge is spent, and the same code is refused in its time step.
    expect((await post('/v1/auth/login/second-factor', { challenge_token: challenged.challenge_token, code })).json().error).toBe('invalid_token');
    const again = (await post('/v1/auth/login', { email, password: PASSWORD })).json();
    const replayed = await post('/v1/auth/login/second-factor', { challenge_token: again.challenge_token, code });
    expect(replayed.statusCode).toBe(401);

    // A recovery code signs in once.
    const byRecovery = await post('/v1/auth/login/second-factor', { challenge_token: again.challenge_token, recovery_code: recovery[0] });
    expect(byRecovery.statusCode).toBe(200);
    expect(byRecovery.json().session.methods).toEqual(['password', 'recovery_code']);
    const third = (await post('/v1/auth/login', { email, password: PASSWORD })).json();
    expect((await post('/v1/auth/login/second-factor', { challenge_token: third.challenge_token, recovery_code: recovery[0] })).statusCode).toBe(401);

    // Refresh rotates: a new pair; the old session token keeps working for the grace only.
    const s1 = byRecovery.json();
    clock.advance(60_000);
    const r1 = await post('/v1/auth/refresh', { refresh_token: s1.refresh_token });
    expect(r1.statusCode).toBe(200);
    const s2 = r1.json();
    expect(s2.session.id).toBe(s1.session.id);
    expect(s2.session_token).not.toBe(s1.session_token);
    expect(s2.refresh_token).not.toBe(s1.refresh_token);
    expect((await get('/v1/auth/session', bearer(s2))).statusCode).toBe(200);
    clock.advance(31_000);
    expect((await get('/v1/auth/session', bearer(s1))).statusCode).toBe(401);
    const r2 = await post('/v1/auth/refresh', { refresh_token: s2.refresh_token });
    expect(r2.statusCode).toBe(200);
    const s3 = r2.json();

    // The first refresh token again, long after its grace: the whole family is revoked and audited.
    const reuse = await post('/v1/auth/refresh', { refresh_token: s1.refresh_token });
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json().message).toMatch(/already used/);
    expect((await get('/v1/auth/session', bearer(s3))).statusCode).toBe(401);
    expect((await post('/v1/auth/refresh', { refresh_token: s3.refresh_token })).statusCode).toBe(401);
    const audit = await t.db.query<{ action: string; actor: string }>("SELECT action, actor FROM audit_log WHERE target = $1 AND action = 'auth.refresh.reuse_detected'", [s1.session.id]);
    expect(audit.rows).toEqual([{ action: 'auth.refresh.reuse_detected', actor: s1.session.user_id }]);
  });
});
