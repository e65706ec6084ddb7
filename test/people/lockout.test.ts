// The sign-in throttle must not become a lockout. An attacker who knows a user's
// e-mail sends one wrong password each time the per-e-mail delay runs out, from rotating addresses
// (behind TRUST_PROXY, X-Forwarded-For), while the user signs in every 3 s. Before the device cookie
// the user got 0 of 49 sign-ins; now the browser that signed in before (its __Host-device cookie) is
// exempt from the per-e-mail delay, while the attacker keeps getting it, and the per-address and
// per-device limits still bind. Step-up (reauthenticate) gets the same treatment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { ManualClock } from '../support/clock.js';
import { bearer, PASSWORD, verifiedUser } from '../support/people.js';
import { SoftAuthenticator } from '../support/soft-authenticator.js';

const clock = new ManualClock('2026-11-26T12:00:00.000Z');
const ORIGIN = 'http://localhost:5173';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock, env: { TRUST_PROXY: 'true', LOGIN_IP_FREE_FAILURES: '20', WEBAUTHN_RP_ID: 'localhost', WEBAUTHN_ORIGINS: ORIGIN } });
}, 60_000);
afterAll(async () => {
  await t?.app.close();
});

// Addresses of this file's own (documentation ranges plus this process): other files' failures never meet them.
const tag = process.pid % 250;
const USER_IP = `198.51.100.${tag}`;
const ATTACKER_IPS = [1, 2, 3, 4, 5].map((i) => `203.0.${i}.${tag}`);
const DEVICE = '__Host-device';

type Res = Awaited<ReturnType<TestApp['app']['inject']>>;
const send = (url: string, payload: object, from: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload, headers: { 'x-forwarded-for': from, ...headers } });
const login = (email: string, password: string, from: string, device?: string) =>
  send('/v1/auth/login', { email, password }, from, device ? { cookie: device } : {});
/** `__Host-device=...` as the browser sends it back, or undefined when the answer set none. */
const deviceOf = (res: Res): string | undefined => {
  const set = ([] as string[]).concat((res.headers['set-cookie'] as string[] | string | undefined) ?? []);
  return set.find((c) => c.startsWith(`${DEVICE}=`))?.split(';')[0];
};

describe('the sign-in throttle is no lockout', () => {
  it('a device cookie is HttpOnly, Secure, SameSite=Strict, host-only, and set at each successful sign-in', async () => {
    const u = await verifiedUser(t.app);
    const res = await login(u.email, PASSWORD, USER_IP);
    expect(res.statusCode).toBe(200);
    const set = ([] as string[]).concat(res.headers['set-cookie'] as string[]).find((c) => c.startsWith(`${DEVICE}=`))!;
    expect(set).toMatch(/^__Host-device=dv_[A-Za-z0-9]{43};/);
    for (const attr of [/; HttpOnly/, /; Secure/, /; SameSite=Strict/, /; Path=\//]) expect(set).toMatch(attr);
    expect(set).not.toMatch(/Domain=/);
    expect(res.body).not.toContain(set.split(';')[0]!.slice(DEVICE.length + 1)); // never in the body: scripts cannot read it
    // Each sign-in answers a new one (the one presented is spent).
    const next = await login(u.email, PASSWORD, USER_IP, deviceOf(res));
    expect(deviceOf(next)).toBeDefined();
    expect(deviceOf(next)).not.toBe(deviceOf(res));
  });

  it('an attacker from 5 rotating addresses keeps the e-mail delayed; the user with their device cookie gets in every time', async () => {
    const u = await verifiedUser(t.app);
    // Yesterday the user signed in on this browser.
    let device = deviceOf(await login(u.email, PASSWORD, USER_IP));
    let ok = 0;
    let tries = 0;
    let attackerFailures = 0;
    let attackerSlowed = 0;
    for (let second = 0; second < 147; second++) {
      // The attacker sends a wrong password the moment the delay runs out (and until a 429 says wait).
      for (;;) {
        const r = await login(u.email, `wrong guess ${attackerFailures}`, ATTACKER_IPS[attackerFailures % 5]!);
        if (r.statusCode === 429) {
          attackerSlowed++;
          break;
        }
        expect(r.statusCode).toBe(401);
        attackerFailures++;
      }
      if (second % 3 === 0) {
        tries++;
        const r = await login(u.email, PASSWORD, USER_IP, device);
        if (r.statusCode === 200) ok++;
        device = deviceOf(r) ?? device;
      }
      clock.advance(1_000);
    }
    expect(`${ok}/${tries}`).toBe('49/49');
    // The attacker still waits: at most 5 free failures, then one per doubling delay (capped at 60 s).
    expect(attackerSlowed).toBeGreaterThan(100);
    expect(attackerFailures).toBeLessThanOrEqual(14);
  });

  it('without a device cookie (an API client) the delay is as before; a cookie for another e-mail is no exemption', async () => {
    const u = await verifiedUser(t.app);
    const other = await verifiedUser(t.app);
    const othersDevice = deviceOf(await login(other.email, PASSWORD, USER_IP));
    for (let i = 0; i < 5; i++) expect((await login(u.email, 'wrong password here', ATTACKER_IPS[i]!)).statusCode).toBe(401);
    const plain = await login(u.email, PASSWORD, USER_IP);
    expect(plain.statusCode).toBe(429);
    expect(plain.headers['retry-after']).toBe('1');
    expect((await login(u.email, PASSWORD, USER_IP, othersDevice)).statusCode).toBe(429);
    expect((await login(u.email, PASSWORD, USER_IP, `${DEVICE}=dv_${'x'.repeat(43)}`)).statusCode).toBe(429);
    clock.advance(1_000);
  });

  it('a device cookie that sees 10 failures is locked itself, for the hour; per-address limits still bind it', async () => {
    const u = await verifiedUser(t.app);
    const device = deviceOf(await login(u.email, PASSWORD, USER_IP))!;
    for (let i = 0; i < 10; i++) expect((await login(u.email, `typo ${i} password`, USER_IP, device)).statusCode).toBe(401);
    const locked = await login(u.email, PASSWORD, USER_IP, device);
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(3000);
    clock.advance(3601_000);
    expect((await login(u.email, PASSWORD, USER_IP, device)).statusCode).toBe(200);

    // An address past its 20 free failures is slowed even with a good device cookie.
    const v = await verifiedUser(t.app);
    const from = `192.0.2.${tag}`;
    const vDevice = deviceOf(await login(v.email, PASSWORD, from))!;
    for (let i = 0; i < 20; i++) await login(`nobody${i}.${tag}@example.com`, 'sprayed password', from);
    const slowed = await login(v.email, PASSWORD, from, vDevice);
    expect(slowed.statusCode).toBe(429);
    clock.advance(3601_000);
  });

  it('step-up shares the e-mail\'s delay: the device cookie lets the user through it, a session alone does not', async () => {
    const u = await verifiedUser(t.app);
    const device = deviceOf(await login(u.email, PASSWORD, USER_IP))!;
    for (let i = 0; i < 6; i++) await login(u.email, 'wrong password here', ATTACKER_IPS[i % 5]!);
    const without = await send('/v1/auth/reauthenticate', { password: PASSWORD }, USER_IP, bearer(u));
    expect(without.statusCode).toBe(429);
    const withDevice = await send('/v1/auth/reauthenticate', { password: PASSWORD }, USER_IP, { ...bearer(u), cookie: device });
    expect(withDevice.statusCode, withDevice.body).toBe(200);
    // A stolen session with the device cookie still cannot guess the password fast: the device locks.
    for (let i = 0; i < 10; i++) expect((await send('/v1/auth/reauthenticate', { password: `guess ${i} password` }, USER_IP, { ...bearer(u), cookie: device })).statusCode).toBe(401);
    expect((await send('/v1/auth/reauthenticate', { password: PASSWORD }, USER_IP, { ...bearer(u), cookie: device })).statusCode).toBe(429);
    clock.advance(3601_000);
  });

  it('a passkey sign-in sets the device cookie too, and it lets the password through the e-mail\'s delay', async () => {
    const u = await verifiedUser(t.app);
    const key = new SoftAuthenticator(ORIGIN);
    const regOpts = await send('/v1/auth/webauthn/registration/options', {}, USER_IP, bearer(u));
    expect((await send('/v1/auth/webauthn/registration/verify', key.create(regOpts.json().options), USER_IP, bearer(u))).statusCode).toBe(201);
    const opts = (await send('/v1/auth/webauthn/authentication/options', {}, USER_IP)).json().options;
    const signedIn = await send('/v1/auth/webauthn/authentication/verify', key.get(opts), USER_IP);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const device = deviceOf(signedIn)!;
    expect(device).toMatch(/^__Host-device=dv_/);
    for (let i = 0; i < 6; i++) await login(u.email, 'wrong password here', ATTACKER_IPS[i % 5]!);
    expect((await login(u.email, PASSWORD, USER_IP)).statusCode).toBe(429);
    expect((await login(u.email, PASSWORD, USER_IP, device)).statusCode).toBe(200);
    clock.advance(3601_000);
  });
});
