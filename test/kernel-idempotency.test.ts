import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';
import { ManualClock } from './support/clock.js';
import { PASSWORD, signupUser } from './support/people.js';
import { eventually } from './support/webhook-receiver.js';

let t: TestApp;
const clock = new ManualClock();
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(async () => t.app.close());

const create = (auth: { authorization: string }, key: string | undefined, payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/applications',
    headers: { ...auth, ...(key === undefined ? {} : { 'idempotency-key': key }) },
    payload: payload as object,
  });

async function countApps(accountId: string): Promise<number> {
  const r = await t.db.query<{ c: number }>('SELECT count(*)::int AS c FROM applications WHERE account_id = $1', [accountId]);
  return r.rows[0]!.c;
}

/**
 * The answer is recorded for its key once it has left (the idempotency plugin's onResponse): wait
 * for the record before the clock jumps, or the jump would find the claim's lock long past and
 * take the request for one whose process died.
 */
async function recorded(accountId: string, key: string): Promise<void> {
  await eventually(async () => {
    const r = await t.db.query<{ state: string }>('SELECT state FROM idempotency_keys WHERE account_id = $1 AND key = $2', [accountId, key]);
    return r.rows.length === 1 && r.rows[0]!.state === 'completed';
  }, undefined, `the answer recorded for ${key}`);
}

describe('Idempotency-Key (docs/guides/api.md#contract-idempotency)', () => {
  it('replays the first answer with Idempotency-Replay: true and processes nothing again', async () => {
    const acc = await t.newAccount();
    const first = await create(acc.auth, 'order-1001-create', { name: 'pos', scopes: ['nfce:write'] });
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotency-replay']).toBeUndefined();
    // Same object with keys in another order and other whitespace is the same body (canonical JSON).
    const again = await t.app.inject({
      method: 'POST', url: '/v1/applications',
      headers: { ...acc.auth, 'idempotency-key': 'order-1001-create', 'content-type': 'application/json' },
      payload: '{ "scopes": ["nfce:write"],   "name": "pos" }',
    });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotency-replay']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await countApps(acc.accountId)).toBe(2); // the owner key + one
  });

  it('answers idempotency_conflict naming the key when the body differs', async () => {
    const acc = await t.newAccount();
    await create(acc.auth, 'conflict-key-1', { name: 'a', scopes: ['nfce:read'] });
    const res = await create(acc.auth, 'conflict-key-1', { name: 'b', scopes: ['nfce:read'] });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.error).toBe('idempotency_conflict');
    expect(body.message).toContain('conflict-key-1');
    expect(body.message).toMatch(/new key|identical body/);
  });

  it('accepts keys of 8 to 256 characters and refuses others with 400', async () => {
    const acc = await t.newAccount();
    for (const bad of ['1234567', 'x'.repeat(257), 'has space inside', 'acentuação123']) {
      const res = await create(acc.auth, bad, { name: 'k', scopes: ['nfce:read'] });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error).toBe('idempotency_key_invalid');
    }
    for (const good of ['12345678', 'y'.repeat(256)]) {
      expect((await create(acc.auth, good, { name: 'k', scopes: ['nfce:read'] })).statusCode).toBe(201);
    }
    expect(await countApps(acc.accountId)).toBe(3);
  });

  it('refuses a malformed key on the public routes too (sign-in, sign-up)', async () => {
    for (const url of ['/v1/auth/login', '/v1/auth/signup']) {
      const res = await t.app.inject({ method: 'POST', url, headers: { 'idempotency-key': 'abcde' }, payload: { email: 'nobody@example.com', password: 'correct horse battery' } });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toMatchObject({ error: 'idempotency_key_invalid', details: [{ field: 'header.Idempotency-Key' }] });
    }
  });

  it('public routes: the password-reset request replays to the same body only; a sign-in is never replayed', async () => {
    const forgot = (key: string, email: string) =>
      t.app.inject({ method: 'POST', url: '/v1/auth/password/forgot', headers: { 'idempotency-key': key }, payload: { email } });
    const links = async (email: string) =>
      (await t.db.query<{ c: number }>(`SELECT count(*)::int AS c FROM jobs WHERE kind = 'people.password-reset-mail' AND payload->>'email' = $1`, [email])).rows[0]!.c;
    const email = `forgot-${Date.now()}@example.com`;
    const first = await forgot('forgot-retry-0001', email);
    expect(first.statusCode).toBe(202);
    expect(first.headers['idempotency-replay']).toBeUndefined();
    await eventually(async () => {
      const r = await t.db.query(`SELECT 1 FROM idempotency_keys WHERE key = 'forgot-retry-0001' AND state = 'completed'`);
      return r.rows.length === 1;
    }, undefined, 'the answer recorded');
    const retry = await forgot('forgot-retry-0001', email);
    expect(retry.statusCode).toBe(202);
    expect(retry.headers['idempotency-replay']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    expect(await links(email)).toBe(1); // the retry sent no second link
    // Another address under the same key is a request of its own: no conflict that would tell a stranger the key was used.
    const other = `other-${email}`;
    const another = await forgot('forgot-retry-0001', other);
    expect(another.statusCode).toBe(202);
    expect(another.headers['idempotency-replay']).toBeUndefined();
    expect(await links(other)).toBe(1);

    // A sign-in opens a session: its key is checked, never stored, so repeating the request (same key,
    // same body) opens a session of its own instead of handing out the first one's tokens.
    const user = await signupUser(t.app);
    const signIn = () => t.app.inject({ method: 'POST', url: '/v1/auth/login', headers: { 'idempotency-key': 'sign-in-key-0001' }, payload: { email: user.email, password: PASSWORD } });
    const a = await signIn();
    const b = await signIn();
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(b.headers['idempotency-replay']).toBeUndefined();
    expect(b.json().session_token).not.toBe(a.json().session_token);
    const stored = await t.db.query(`SELECT 1 FROM idempotency_keys WHERE key = 'sign-in-key-0001'`);
    expect(stored.rows).toHaveLength(0);
  });

  it('expires keys after 24 hours: reuse starts a new processing', async () => {
    const acc = await t.newAccount();
    const first = await create(acc.auth, 'expiring-key-1', { name: 'e', scopes: ['nfce:read'] });
    await recorded(acc.accountId, 'expiring-key-1');
    clock.advance(23 * 3600_000 + 59 * 60_000);
    const replay = await create(acc.auth, 'expiring-key-1', { name: 'e', scopes: ['nfce:read'] });
    expect(replay.headers['idempotency-replay']).toBe('true');
    expect(replay.json().id).toBe(first.json().id);
    clock.advance(2 * 60_000);
    const fresh = await create(acc.auth, 'expiring-key-1', { name: 'e', scopes: ['nfce:read'] });
    expect(fresh.statusCode).toBe(201);
    expect(fresh.headers['idempotency-replay']).toBeUndefined();
    expect(fresh.json().id).not.toBe(first.json().id);
    await recorded(acc.accountId, 'expiring-key-1');
    // After expiry a different body is a new request, not a conflict.
    clock.advance(25 * 3600_000);
    expect((await create(acc.auth, 'expiring-key-1', { name: 'other', scopes: ['nfce:read'] })).statusCode).toBe(201);
  });

  it('is ignored on GET', async () => {
    const acc = await t.newAccount();
    const res = await t.app.inject({ method: 'GET', url: '/v1/applications', headers: { ...acc.auth, 'idempotency-key': 'short' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['idempotency-replay']).toBeUndefined();
  });

  it('runs the handler once for 20 concurrent identical requests', async () => {
    const acc = await t.newAccount();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => create(acc.auth, 'concurrent-key-20', { name: 'c', scopes: ['nfce:read'] })),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
    expect(new Set(results.map((r) => r.json().id)).size).toBe(1);
    expect(results.filter((r) => r.headers['idempotency-replay'] === 'true')).toHaveLength(19);
    expect(await countApps(acc.accountId)).toBe(2);
  });

  it('scopes keys per account and per path', async () => {
    const a = await t.newAccount();
    const b = await t.newAccount();
    const ra = await create(a.auth, 'shared-key-across', { name: 's', scopes: ['nfce:read'] });
    const rb = await create(b.auth, 'shared-key-across', { name: 's', scopes: ['nfce:read'] });
    expect(rb.headers['idempotency-replay']).toBeUndefined();
    expect(rb.json().id).not.toBe(ra.json().id);
  });
});
