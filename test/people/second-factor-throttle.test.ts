// second-factor failures count per user across sign-in challenges, atomically,
// with growing delays, and only a successful second factor resets them. Before, each correct
// password started a new challenge with 5 fresh tries (40 wrong codes checked in 0.5 s), and on
// PostgreSQL 25 parallel answers to one challenge checked 5 to 7 codes where the limit is 5.
// Run on PostgreSQL too: TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { ManualClock } from '../support/clock.js';
import { bearer, PASSWORD, totpCode, verifiedUser } from '../support/people.js';

const clock = new ManualClock('2026-11-27T12:00:00.000Z');
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock });
}, 60_000);
afterAll(async () => {
  await t?.app.close();
});

const post = (url: string, payload: object | undefined, headers: Record<string, string> = {}) => t.app.inject({ method: 'POST', url, payload, headers });
const deviceOf = (res: Awaited<ReturnType<typeof post>>) =>
  ([] as string[]).concat((res.headers['set-cookie'] as string[] | string | undefined) ?? []).find((c) => c.startsWith('__Host-device='))?.split(';')[0];

/** A verified user with TOTP on; answers its secret and recovery codes. */
async function userWithTotp() {
  const u = await verifiedUser(t.app);
  const secret: string = (await post('/v1/auth/2fa/setup', undefined, bearer(u))).json().secret;
  const enabled = await post('/v1/auth/2fa/verify', { code: totpCode(secret, clock.now().getTime()) }, bearer(u));
  expect(enabled.statusCode, enabled.body).toBe(200);
  clock.advance(31_000); // the code that enabled TOTP is spent for its time step
  return { ...u, secret, recovery: enabled.json().recovery_codes as string[] };
}

/** A code that is none of the codes valid now (this step and the ones either side). */
function wrongCode(secret: string): string {
  const now = clock.now().getTime();
  const valid = new Set([-30_000, 0, 30_000].map((d) => totpCode(secret, now + d)));
  return ['000000', '111111', '222222', '333333'].find((c) => !valid.has(c))!;
}

const challenge = async (email: string): Promise<string> => {
  const r = await post('/v1/auth/login', { email, password: PASSWORD });
  expect(r.json().object, r.body).toBe('login_challenge');
  return r.json().challenge_token;
};

describe('second-factor failures count per user', () => {
  it('a new challenge (the password is known) does not reset the count: after 5 failures the delays double', async () => {
    const u = await userWithTotp();
    for (let i = 0; i < 5; i++) {
      const r = await post('/v1/auth/login/second-factor', { challenge_token: await challenge(u.email), code: wrongCode(u.secret) });
      expect(r.statusCode, `try ${i + 1}`).toBe(401);
    }
    const held = await post('/v1/auth/login/second-factor', { challenge_token: await challenge(u.email), code: wrongCode(u.secret) });
    expect(held.statusCode).toBe(429);
    expect(held.json().error).toBe('rate_limited');
    expect(held.headers['retry-after']).toBe('1');
    clock.advance(1_000);
    // Recovery codes count the same way.
    expect((await post('/v1/auth/login/second-factor', { challenge_token: await challenge(u.email), recovery_code: 'aaaa-bbbb-cccc-dddd' })).statusCode).toBe(401);
    const longer = await post('/v1/auth/login/second-factor', { challenge_token: await challenge(u.email), code: totpCode(u.secret, clock.now().getTime()) });
    expect(longer.statusCode).toBe(429);
    expect(longer.headers['retry-after']).toBe('2');
    clock.advance(2_000);
    // Once the delay passed, the right code gets in, and resets the count.
    const good = await post('/v1/auth/login/second-factor', { challenge_token: await challenge(u.email), code: totpCode(u.secret, clock.now().getTime()) });
    expect(good.statusCode, good.body).toBe(200);
    clock.advance(30_000);
    for (let i = 0; i < 5; i++) expect((await post('/v1/auth/login/second-factor', { challenge_token: await challenge(u.email), code: wrongCode(u.secret) })).statusCode).toBe(401);
  });

  it('the user\'s browser with its device cookie passes the delay an attacker holding the password keeps up', async () => {
    const u = await userWithTotp();
    const first = await post('/v1/auth/login/second-factor', { challenge_token: await challenge(u.email), code: totpCode(u.secret, clock.now().getTime()) });
    expect(first.statusCode).toBe(200);
    const device = deviceOf(first)!;
    expect(device).toBeDefined();
    clock.advance(30_000);
    for (let i = 0; i < 6; i++) await post('/v1/auth/login/second-factor', { challenge_token: await challenge(u.email), code: wrongCode(u.secret) });
    const token = await challenge(u.email);
    const code = totpCode(u.secret, clock.now().getTime());
    expect((await post('/v1/auth/login/second-factor', { challenge_token: token, code })).statusCode).toBe(429);
    const mine = await post('/v1/auth/login/second-factor', { challenge_token: token, code }, { cookie: device });
    expect(mine.statusCode, mine.body).toBe(200);
  });

  it('step-up and disabling TOTP count on the same per-user count', async () => {
    const u = await userWithTotp();
    // (step-up failures also count on the e-mail's sign-in delay, which holds after 5: 4 here)
    for (let i = 0; i < 4; i++) expect((await post('/v1/auth/reauthenticate', { code: wrongCode(u.secret) }, bearer(u))).statusCode).toBe(401);
    expect((await post('/v1/auth/2fa/disable', { code: wrongCode(u.secret) }, bearer(u))).statusCode).toBe(401);
    for (const held of [
      await post('/v1/auth/login/second-factor', { challenge_token: await challenge(u.email), code: wrongCode(u.secret) }),
      await post('/v1/auth/2fa/disable', { code: wrongCode(u.secret) }, bearer(u)),
    ]) {
      expect(held.statusCode).toBe(429);
      expect(held.json().message).toMatch(/wrong codes/);
    }
  });

  it('25 parallel answers, to one challenge or to 25, check at most 5 codes', async () => {
    for (const shared of [true, false]) {
      const u = await userWithTotp();
      const one = shared ? await challenge(u.email) : undefined;
      const tokens = await Promise.all(Array.from({ length: 25 }, () => one ?? challenge(u.email)));
      const code = wrongCode(u.secret);
      const answers = await Promise.all(tokens.map((challenge_token) => post('/v1/auth/login/second-factor', { challenge_token, code })));
      const checked = answers.filter((r) => r.statusCode === 401 && r.json().error === 'unauthorized').length;
      // The others wait (429) or find the challenge spent (400 invalid_token): no code of theirs was checked.
      expect(answers.every((r) => [400, 401, 429].includes(r.statusCode)), answers.map((r) => r.body).join('\n')).toBe(true);
      expect(checked, shared ? 'one challenge' : '25 challenges').toBeLessThanOrEqual(5);
      expect(checked).toBeGreaterThan(0);
    }
  });
});
