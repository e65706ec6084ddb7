// What guards a session. Lifetimes (idle, absolute), the CSRF check of
// cookie-authenticated requests, the growing delays after failed sign-ins (never a lock), the
// argon2id hash upgraded at sign-in, step-up, password reset ending every session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/infra/identity/password.js';
import { insertMembership } from '../../src/platform/people/storage/membership-repository.js';
import { MAX_LIVE_SESSIONS } from '../../src/platform/people/session-lifecycle.js';
import { insertSession } from '../../src/platform/people/storage/session-repository.js';
import { hashToken, newOpaqueToken } from '../../src/infra/identity/opaque-token.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { ManualClock } from '../support/clock.js';
import { bearer, forgotPasswordToken, mailFor, newEmail, PASSWORD, signupUser, totpCode, verifiedUser } from '../support/people.js';

const clock = new ManualClock('2026-11-25T12:00:00.000Z');
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock, role: 'all', env: { SESSION_IDLE_SECONDS: '1800', SESSION_ABSOLUTE_SECONDS: '7200', LOGIN_IP_FREE_FAILURES: '20' } });
}, 60_000);
afterAll(async () => {
  await t.app.close();
});

// An address of this file's own: its failed sign-ins must not slow another file's (same database).
const ip = `10.${1 + (process.pid % 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
const post = (url: string, payload?: object, headers: Record<string, string> = {}, from = ip) =>
  t.app.inject({ method: 'POST', url, payload, headers, remoteAddress: from });
const get = (url: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url, headers });
const cookieOf = (res: { headers: Record<string, unknown> }, name: string) => {
  const set = ([] as string[]).concat(res.headers['set-cookie'] as string[] | string);
  return set.find((c) => c.startsWith(`${name}=`));
};

describe('sessions', () => {
  it('sign-up sets __Host- cookies: HttpOnly, Secure, SameSite=Lax, Path=/', async () => {
    const res = await post('/v1/auth/signup', { email: newEmail(), password: PASSWORD });
    expect(res.statusCode).toBe(201);
    const session = cookieOf(res, '__Host-session')!;
    expect(session).toMatch(/^__Host-session=st_[A-Za-z0-9]{43};/);
    expect(session).toMatch(/; HttpOnly/);
    expect(session).toMatch(/; Secure/);
    expect(session).toMatch(/; SameSite=Lax/);
    expect(session).toMatch(/; Path=\//);
    expect(session).not.toMatch(/Domain=/);
    expect(cookieOf(res, '__Host-refresh')).toMatch(/^__Host-refresh=rt_.*SameSite=Strict/);
  });

  it('a second sign-up with the same e-mail (other capitals) answers like a new one with tokens that open nothing; nothing half-written', async () => {
    const email = newEmail('dup');
    const first = await signupUser(t.app, email);
    const before = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM accounts');
    const again = await post('/v1/auth/signup', { email: email.toUpperCase(), password: PASSWORD });
    // A stranger does not learn that the address has an account; its owner is told by e-mail.
    expect(again.statusCode).toBe(201);
    expect(again.json()).toMatchObject({ object: 'session', session_token: expect.stringMatching(/^st_/), refresh_token: expect.stringMatching(/^rt_/) });
    expect((await get('/v1/auth/session', bearer(again.json()))).statusCode).toBe(401);
    expect((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM accounts')).rows[0]!.n).toBe(before.rows[0]!.n);
    expect((await mailFor(t.app, first.session_token, /tentou criar uma conta/))?.to).toBe(email);
  });

  it('a short password is a 422 naming the field', async () => {
    const res = await post('/v1/auth/signup', { email: newEmail(), password: 'short' });
    expect(res.statusCode).toBe(422);
    expect(JSON.stringify(res.json().details)).toContain('password');
  });

  it('cookie-authenticated mutating requests must come from the dashboard origin (CSRF); Bearer ones need no Origin', async () => {
    const u = await verifiedUser(t.app);
    const cookie = { cookie: `__Host-session=${u.session_token}` };
    expect((await get('/v1/auth/session', cookie)).statusCode).toBe(200); // reading needs no Origin
    const none = await post('/v1/auth/2fa/setup', undefined, cookie);
    expect(none.statusCode).toBe(403);
    expect(none.json().message).toMatch(/Origin/);
    const evil = await post('/v1/auth/2fa/setup', undefined, { ...cookie, origin: 'https://evil.example' });
    expect(evil.statusCode).toBe(403);
    expect(evil.json().message).toMatch(/evil\.example/);
    const good = await post('/v1/auth/2fa/setup', undefined, { ...cookie, origin: t.config.publicBaseUrl });
    expect(good.statusCode).toBe(200);
    expect((await post('/v1/auth/2fa/setup', undefined, bearer(u))).statusCode).toBe(200);
  });

  it('a browser refreshes with the __Host-refresh cookie and no body, from the dashboard origin only', async () => {
    const u = await verifiedUser(t.app);
    const cookie = { cookie: `__Host-refresh=${u.refresh_token}` };
    const crossSite = await t.app.inject({ method: 'POST', url: '/v1/auth/refresh', headers: { ...cookie, origin: 'https://evil.example' }, remoteAddress: ip });
    expect(crossSite.statusCode).toBe(403);
    const res = await t.app.inject({ method: 'POST', url: '/v1/auth/refresh', headers: { ...cookie, origin: t.config.publicBaseUrl }, remoteAddress: ip });
    expect(res.statusCode, res.body).toBe(200);
    expect(cookieOf(res, '__Host-session')).toContain(res.json().session_token);
    expect(cookieOf(res, '__Host-refresh')).toContain(res.json().refresh_token);
  });

  it('idle lifetime: unused for 30 minutes the session ends; used, it lives on until its absolute end', async () => {
    const idle = await verifiedUser(t.app);
    const busy = (await post('/v1/auth/login', { email: (await verifiedUser(t.app)).email, password: PASSWORD })).json();
    for (let i = 0; i < 4; i++) {
      clock.advance(20 * 60_000);
      expect((await get('/v1/auth/session', bearer(busy))).statusCode, `after ${(i + 1) * 20} min`).toBe(200);
    }
    expect((await get('/v1/auth/session', bearer(idle))).statusCode).toBe(401);
    // 2 h absolute: refresh cannot carry it further.
    clock.advance(41 * 60_000);
    expect((await get('/v1/auth/session', bearer(busy))).statusCode).toBe(401);
    expect((await post('/v1/auth/refresh', { refresh_token: busy.refresh_token })).statusCode).toBe(401);
  });

  it('failed sign-ins slow down per e-mail with Retry-After, never lock: the right password works once the delay passed', async () => {
    const u = await verifiedUser(t.app);
    for (let i = 0; i < 5; i++) expect((await post('/v1/auth/login', { email: u.email, password: `wrong ${i} password` })).statusCode).toBe(401);
    const slowed = await post('/v1/auth/login', { email: u.email, password: PASSWORD });
    expect(slowed.statusCode).toBe(429);
    expect(slowed.headers['retry-after']).toBe('1');
    clock.advance(1_000);
    expect((await post('/v1/auth/login', { email: u.email, password: 'wrong again password' })).statusCode).toBe(401);
    const longer = await post('/v1/auth/login', { email: u.email, password: PASSWORD });
    expect(longer.headers['retry-after']).toBe('2');
    clock.advance(2_000);
    expect((await post('/v1/auth/login', { email: u.email, password: PASSWORD })).statusCode).toBe(200);
    // Success clears the e-mail's count.
    expect((await post('/v1/auth/login', { email: u.email, password: 'one wrong password' })).statusCode).toBe(401);
    expect((await post('/v1/auth/login', { email: u.email, password: PASSWORD })).statusCode).toBe(200);
  });

  it('failures from one address slow that address for every e-mail (after 20), not the others', async () => {
    const from = '192.0.2.77';
    for (let i = 0; i < 20; i++) expect((await post('/v1/auth/login', { email: newEmail('spray'), password: 'sprayed password' }, {}, from)).statusCode).toBe(401);
    const u = await verifiedUser(t.app);
    const slowed = await post('/v1/auth/login', { email: u.email, password: PASSWORD }, {}, from);
    expect(slowed.statusCode).toBe(429);
    expect(slowed.headers['retry-after']).toBe('1');
    expect((await post('/v1/auth/login', { email: u.email, password: PASSWORD })).statusCode).toBe(200);
  });

  it('a failure stamped ahead of this clock (another process, clocks apart) holds no one longer than its delay', async () => {
    const u = await verifiedUser(t.app);
    const ahead = new Date(clock.now().getTime() + 3 * 3600_000);
    await t.db.query('INSERT INTO login_failures (key, failures, first_at, last_at) VALUES ($1, 3, $2, $2)', [`email:${u.email}`, ahead]);
    expect((await post('/v1/auth/login', { email: u.email, password: PASSWORD })).statusCode).toBe(200);
    // (the success cleared the e-mail's count)
    await t.db.query('INSERT INTO login_failures (key, failures, first_at, last_at) VALUES ($1, 6, $2, $2)', [`email:${u.email}`, ahead]);
    const held = await post('/v1/auth/login', { email: u.email, password: PASSWORD });
    expect(held.statusCode).toBe(429);
    expect(held.headers['retry-after']).toBe('2');
  });

  it('an unknown e-mail and a wrong password get the same answer', async () => {
    const u = await verifiedUser(t.app);
    const unknown = await post('/v1/auth/login', { email: newEmail('nobody'), password: 'some password here' });
    const wrong = await post('/v1/auth/login', { email: u.email, password: 'some password here' });
    expect([unknown.statusCode, wrong.statusCode]).toEqual([401, 401]);
    const strip = (b: Record<string, unknown>) => ({ ...b, request_id: undefined });
    expect(strip(unknown.json())).toEqual(strip(wrong.json()));
  });

  it('a hash made with weaker parameters is upgraded at the next sign-in', async () => {
    const u = await verifiedUser(t.app);
    const weak = await hashPassword(PASSWORD, { algorithm: 2, memoryCost: 4096, timeCost: 1, parallelism: 1 });
    await t.db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [u.session.user_id, weak]);
    expect((await post('/v1/auth/login', { email: u.email, password: PASSWORD })).statusCode).toBe(200);
    const stored = (await t.db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [u.session.user_id])).rows[0]!.password_hash;
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect((await post('/v1/auth/login', { email: u.email, password: PASSWORD })).statusCode).toBe(200);
  });

  it('step-up: after 10 minutes a sensitive action answers reauthentication_required until the user proves it again', async () => {
    const u = await verifiedUser(t.app);
    const setup = (await post('/v1/auth/2fa/setup', undefined, bearer(u))).json();
    const enabled = (await post('/v1/auth/2fa/verify', { code: totpCode(setup.secret, clock.now().getTime()) }, bearer(u))).json();
    clock.advance(11 * 60_000);
    const late = await post('/v1/auth/2fa/disable', { recovery_code: enabled.recovery_codes[0] }, bearer(u));
    expect(late.statusCode).toBe(403);
    expect(late.json().error).toBe('reauthentication_required');
    expect((await post('/v1/auth/reauthenticate', { password: 'not my password' }, bearer(u))).statusCode).toBe(401);
    const fresh = await post('/v1/auth/reauthenticate', { code: totpCode(setup.secret, clock.now().getTime()) }, bearer(u));
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json().methods).toContain('totp');
    // Disabling also needs a fresh second factor: a wrong code is refused, a recovery code works.
    expect((await post('/v1/auth/2fa/disable', { code: '000000' }, bearer(u))).statusCode).toBe(401);
    const off = await post('/v1/auth/2fa/disable', { recovery_code: enabled.recovery_codes[1] }, bearer(u));
    expect(off.statusCode).toBe(200);
    expect((await post('/v1/auth/login', { email: u.email, password: PASSWORD })).json().object).toBe('session');
  });

  it('password reset: the link works once, ends every session, and the old password stops working', async () => {
    const u = await verifiedUser(t.app);
    const other = (await post('/v1/auth/login', { email: u.email, password: PASSWORD })).json();
    expect((await post('/v1/auth/password/forgot', { email: newEmail('nobody') })).statusCode).toBe(202);
    const token = await forgotPasswordToken(t.app, u.email, u.session_token);
    expect((await post('/v1/auth/password/reset', { token, password: 'my new passphrase 2026' })).statusCode).toBe(200);
    expect((await post('/v1/auth/password/reset', { token, password: 'another passphrase 2026' })).json().error).toBe('invalid_token');
    expect((await get('/v1/auth/session', bearer(u))).statusCode).toBe(401);
    expect((await get('/v1/auth/session', bearer(other))).statusCode).toBe(401);
    expect((await post('/v1/auth/login', { email: u.email, password: PASSWORD })).statusCode).toBe(401);
    expect((await post('/v1/auth/login', { email: u.email, password: 'my new passphrase 2026' })).statusCode).toBe(200);
  });

  it('lists the user\'s own sessions and signs one out; another user\'s session is not found', async () => {
    const u = await verifiedUser(t.app);
    const second = (await post('/v1/auth/login', { email: u.email, password: PASSWORD }, { 'user-agent': 'PDV tablet' })).json();
    const list = (await get('/v1/auth/sessions', bearer(u))).json();
    expect(list.data.map((s: { id: string }) => s.id)).toEqual(expect.arrayContaining([u.session.id, second.session.id]));
    expect(list.data.find((s: { id: string }) => s.id === u.session.id).current).toBe(true);
    expect(list.data.find((s: { id: string }) => s.id === second.session.id).user_agent).toBe('PDV tablet');
    const stranger = await verifiedUser(t.app);
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/auth/sessions/${second.session.id}`, headers: bearer(stranger) })).statusCode).toBe(404);
    expect((await get('/v1/auth/session', bearer(second))).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/auth/sessions/${second.session.id}`, headers: bearer(u) })).statusCode).toBe(204);
    expect((await get('/v1/auth/session', bearer(second))).statusCode).toBe(401);
  });

  it('a member of two accounts switches between them; the old session ends and no step-up is gained', async () => {
    const u = await verifiedUser(t.app);
    const other = await t.newAccount('Second account');
    await insertMembership(t.db, { accountId: other.accountId, userId: u.session.user_id, role: 'viewer', at: clock.now() });
    const me = (await get('/v1/auth/session', bearer(u))).json();
    expect(me.memberships.map((m: { account_id: string }) => m.account_id).sort()).toEqual([u.session.account_id, other.accountId].sort());
    clock.advance(11 * 60_000);
    const switched = await post('/v1/auth/switch-account', { account_id: other.accountId }, bearer(u));
    expect(switched.statusCode).toBe(200);
    const s = switched.json();
    expect(s.session.account_id).toBe(other.accountId);
    expect(s.session.authenticated_at).toBe((u.session as unknown as { authenticated_at: string }).authenticated_at);
    expect((await get('/v1/auth/session', bearer(u))).statusCode).toBe(401);
    const there = (await get('/v1/auth/session', bearer(s))).json();
    expect(there.role).toBe('viewer');
    expect((await get('/v1/account', bearer(s))).json().id).toBe(other.accountId);
    // A viewer reads, and cannot write.
    expect((await post('/v1/webhooks', { url: 'https://example.com/h', event_types: ['nfce.authorized'] }, bearer(s))).statusCode).toBe(403);
    const stranger = await t.newAccount('Not mine');
    const refused = await post('/v1/auth/switch-account', { account_id: stranger.accountId }, bearer(s));
    expect(refused.statusCode).toBe(403);
  });

  it('an API key cannot act as a person, and a session acts with its role on its own account only', async () => {
    const { auth } = await t.newAccount('Keys only');
    const res = await get('/v1/auth/session', auth);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('forbidden');
    const u = await verifiedUser(t.app);
    const mine = (await get('/v1/account', bearer(u))).json();
    expect(mine.id).toBe(u.session.account_id);
  });

  it(`a person holds at most ${MAX_LIVE_SESSIONS} live sessions: signing in once more ends the least recently used, and the list shows every live one`, async () => {
    const u = await verifiedUser(t.app);
    const userId = u.session.user_id;
    // Sessions opened earlier (as many sign-ins would), each used ten seconds after the one before (all within the idle lifetime); the oldest is u's own.
    const now = clock.now();
    for (let i = 1; i < MAX_LIVE_SESSIONS; i++) {
      const at = new Date(now.getTime() - (MAX_LIVE_SESSIONS - i) * 10_000 + 1000);
      await insertSession(t.db, {
        id: `ses_limit_${process.pid}_${i}`, userId, accountId: u.session.account_id, tokenHash: hashToken(newOpaqueToken('st')), methods: ['password'],
        at, expiresAt: new Date(now.getTime() + 3600_000), ip: null, userAgent: null,
      });
    }
    const before = (await get('/v1/auth/sessions', bearer(u.session_token))).json().data as { id: string }[];
    expect(before).toHaveLength(MAX_LIVE_SESSIONS);
    // Reading the list used u's session; set it back to the least recently used.
    await t.db.query(`UPDATE sessions SET last_used_at = $2 WHERE id = $1`, [u.session.id, new Date(now.getTime() - MAX_LIVE_SESSIONS * 10_000)]);

    const again = await post('/v1/auth/login', { email: u.email, password: PASSWORD });
    expect(again.statusCode, again.body).toBe(200);
    const fresh = again.json().session_token as string;
    const after = (await get('/v1/auth/sessions', bearer(fresh))).json().data as { id: string }[];
    expect(after).toHaveLength(MAX_LIVE_SESSIONS);
    // The least recently used (u's first session) is the one ended: its token opens nothing any more.
    expect(after.map((x) => x.id)).not.toContain(u.session.id);
    expect((await get('/v1/auth/sessions', bearer(u.session_token))).statusCode).toBe(401);
    const ended = await t.db.query<{ revoked_reason: string }>('SELECT revoked_reason FROM sessions WHERE id = $1', [u.session.id]);
    expect(ended.rows[0]!.revoked_reason).toBe('session_limit');
  });
});
