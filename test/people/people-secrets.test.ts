// Last point of "done when": no password, session token, refresh token, TOTP secret,
// recovery code or sign-in token in clear in the database, the logs (pino at trace, the options of
// `serve`) or the audit log, after a realistic life of a person: sign-up, e-mail link, sign-in, an
// invite, TOTP, challenge, recovery code, refresh, step-up, password reset.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret } from 'otpauth';
import { LOG_REDACT } from '../../src/app.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { ManualClock } from '../support/clock.js';
import { bearer, forgotPasswordToken, newEmail, PASSWORD, signupUser, tokenFromMail, totpCode, verifiedUser } from '../support/people.js';
import { dumpDatabase, logCapture } from '../support/security-world.js';

const log = logCapture();
const clock = new ManualClock('2026-11-25T15:00:00.000Z');
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock, role: 'all', options: { logger: { level: 'trace', redact: { paths: LOG_REDACT, censor: '[redacted]' }, stream: log.stream } } });
}, 60_000);
afterAll(async () => {
  await t.app.close();
});

describe('secrets of people', () => {
  it('appear in no log line, no audit entry, no database row, and in no answer but the one that hands them out', async () => {
    const post = (url: string, payload?: object, headers: Record<string, string> = {}) => t.app.inject({ method: 'POST', url, payload, headers });
    const secrets: [string, string][] = [['password', PASSWORD]];
    const keep = (what: string, value: string) => {
      secrets.push([what, value]);
      return value;
    };
    const later: string[] = []; // answers that must not repeat a secret handed out before

    const email = newEmail('secrets');
    const signed = await signupUser(t.app, email);
    keep('session token', signed.session_token);
    keep('refresh token', signed.refresh_token);
    const verifyToken = keep('verification token', await tokenFromMail(t.app, signed.session_token, /Confirm/, 'evf'));
    later.push((await post('/v1/auth/verify-email', { token: verifyToken })).body);

    const login = (await post('/v1/auth/login', { email, password: PASSWORD })).json();
    keep('session token', login.session_token);
    keep('refresh token', login.refresh_token);
    // An invite: its token travels only in the (sealed) e-mail; its creation answer does not carry it.
    const invitee = await verifiedUser(t.app, newEmail('invitee'));
    const invite = await post('/v1/team/invites', { email: invitee.email, role: 'developer' }, bearer(login));
    expect(invite.statusCode, invite.body).toBe(201);
    later.push(invite.body);
    keep('invite token', await tokenFromMail(t.app, invitee.session_token, /^Convite/, 'inv'));
    const setup = (await post('/v1/auth/2fa/setup', undefined, bearer(login))).json();
    const secret = keep('TOTP secret', setup.secret);
    const raw = Secret.fromBase32(secret).bytes;
    keep('TOTP secret (hex)', Buffer.from(raw).toString('hex'));
    keep('TOTP secret (base64)', Buffer.from(raw).toString('base64'));
    const enabled = (await post('/v1/auth/2fa/verify', { code: totpCode(secret, clock.now().getTime()) }, bearer(login))).json();
    for (const c of enabled.recovery_codes as string[]) {
      keep('recovery code', c);
      keep('recovery code (no dashes)', c.replace(/-/g, ''));
    }

    clock.advance(31_000);
    const challenge = (await post('/v1/auth/login', { email, password: PASSWORD })).json();
    keep('challenge token', challenge.challenge_token);
    const second = (await post('/v1/auth/login/second-factor', { challenge_token: challenge.challenge_token, recovery_code: enabled.recovery_codes[3] })).json();
    keep('session token', second.session_token);
    const refreshed = (await post('/v1/auth/refresh', { refresh_token: second.refresh_token })).json();
    keep('refresh token', second.refresh_token);
    keep('session token', refreshed.session_token);
    keep('refresh token', refreshed.refresh_token);
    later.push((await post('/v1/auth/reauthenticate', { password: PASSWORD }, bearer(refreshed))).body);
    later.push((await t.app.inject({ method: 'GET', url: '/v1/auth/session', headers: bearer(refreshed) })).body);
    later.push((await t.app.inject({ method: 'GET', url: '/v1/auth/sessions', headers: bearer(refreshed) })).body);
    // A wrong password is refused without being echoed.
    keep('wrong password', 'not-the-password-at-all');
    later.push((await post('/v1/auth/login', { email, password: 'not-the-password-at-all' })).body);

    const resetToken = keep('reset token', await forgotPasswordToken(t.app, email, refreshed.session_token));
    const newPassword = keep('new password', 'a brand new passphrase 2026');
    const reset = await post('/v1/auth/password/reset', { token: resetToken, password: newPassword });
    expect(reset.statusCode).toBe(200);
    later.push(reset.body);
    // TOTP was turned on minutes before the reset: suspended, the new password alone signs in.
    const after = (await post('/v1/auth/login', { email, password: newPassword })).json();
    expect(after.object).toBe('session');
    keep('session token', after.session_token);

    const found = (text: string) => [...new Set(secrets.filter(([, v]) => text.includes(v)).map(([w]) => w))];
    // The detector finds what it looks for (not vacuous).
    expect(found(JSON.stringify(signed))).toEqual(expect.arrayContaining(['session token', 'refresh token']));
    for (const text of later) expect(found(text)).toEqual([]);

    // The audit log as the owner reads it (a fresh session: the reset ended the others).
    const owner = after;
    const audit = await t.app.inject({ method: 'GET', url: '/v1/audit-log?limit=100', headers: bearer(owner) });
    expect(audit.statusCode).toBe(200);
    expect(audit.body).toContain('auth.session.create');
    expect(audit.body).toContain('auth.password.reset');
    expect(found(audit.body), 'audit log').toEqual([]);

    const logs = log.text();
    expect(logs).toContain('"url":"/v1/auth/login"');
    expect(found(logs), 'logs').toEqual([]);

    const dump = await dumpDatabase(t.db);
    expect(dump).toContain(signed.session.user_id);
    expect(dump).toContain('$argon2id$');
    expect(found(dump), 'database').toEqual([]);
  }, 60_000);
});
