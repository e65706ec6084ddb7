// The dashboard's own traffic is limited per session, not through the address's API
// budget. In the sandbox every request of an address shared 60 a minute, curl's and the dashboard's:
// a few reloads of the dashboard left its pages waiting. Now a session counts on itself
// (SESSION_RATE_LIMIT_PER_MINUTE), and made-up session cookies still get 429 per address before any lookup.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryRateLimitStore } from '../src/infra/storage/rate-limit-store.js';
import { createTestApp, type TestApp } from './support/app.js';
import { ManualClock } from './support/clock.js';
import { verifiedUser } from './support/people.js';

const API_LIMIT = 5;
const SESSION_LIMIT = 12;
const FAILED_LIMIT = 3;
const IP = '10.31.3.1';
const sandboxKey = { authorization: 'Bearer sk_sandbox_public' };
const cookie = (token: string) => ({ cookie: `__Host-session=${token}` });

describe('dashboard sessions have a budget of their own', () => {
  let t: TestApp;
  const clock = new ManualClock('2026-11-28T12:00:00.000Z');
  beforeAll(async () => {
    t = await createTestApp({
      clock,
      env: { RATE_LIMIT_PER_MINUTE: String(API_LIMIT), RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: String(FAILED_LIMIT), SESSION_RATE_LIMIT_PER_MINUTE: String(SESSION_LIMIT) },
      options: { rateLimitStore: memoryRateLimitStore() },
    });
  }, 240_000); // seconds alone, minutes on a machine busy with other runs
  afterAll(async () => t?.app.close());
  const get = (url: string, headers: Record<string, string>, remoteAddress = IP) => t.app.inject({ method: 'GET', url, headers, remoteAddress });

  it('the sandbox address\'s API budget is not spent by dashboard requests, and a session\'s 429 says when to come back', async () => {
    clock.advance(120_000); // a fresh window
    const owner = await verifiedUser(t.app);
    // More dashboard requests from the address than its whole API budget (verifiedUser read the mail once)...
    for (let i = 1; i < SESSION_LIMIT; i++) {
      const r = await get('/v1/auth/session', cookie(owner.session_token));
      expect(r.statusCode, r.body).toBe(200);
      expect(r.headers['x-ratelimit-limit']).toBe(String(SESSION_LIMIT));
      expect(r.headers['x-ratelimit-remaining']).toBe(String(SESSION_LIMIT - 1 - i));
    }
    // ...and the address's API budget is whole: curl's first request leaves API_LIMIT - 1.
    const api = await get('/v1/ufs', sandboxKey);
    expect(api.statusCode, api.body).toBe(200);
    expect(api.headers['x-ratelimit-remaining']).toBe(String(API_LIMIT - 1));

    // The session's own limit: 429 with Retry-After, the session named.
    clock.advance(10_000);
    const refused = await get('/v1/auth/session', cookie(owner.session_token));
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: 'rate_limited', message: expect.stringContaining('for this session') });
    expect(Number(refused.headers['retry-after'])).toBe(50);
    // Another session (another tab signed in elsewhere, another member) is not held by it, nor is the API.
    const other = await verifiedUser(t.app);
    expect((await get('/v1/auth/session', cookie(other.session_token))).statusCode).toBe(200);
    expect((await get('/v1/ufs', sandboxKey)).headers['x-ratelimit-remaining']).toBe(String(API_LIMIT - 2));
    // A bearer session token counts on the same session budget.
    expect((await get('/v1/auth/session', { authorization: `Bearer ${owner.session_token}` })).statusCode).toBe(429);
  });

  it('made-up session cookies are counted per address before any lookup: 429 after the failed-credentials budget', async () => {
    clock.advance(120_000);
    const ip = '10.31.3.2';
    for (let i = 0; i < FAILED_LIMIT; i++) {
      const r = await get('/v1/auth/session', cookie(`st_${String(i).padStart(43, 'x')}`), ip);
      expect(r.statusCode).toBe(401);
    }
    const r = await get('/v1/auth/session', cookie(`st_${'y'.repeat(43)}`), ip);
    expect(r.statusCode).toBe(429);
    expect(r.json().message).toContain('without a valid session');
    // Valid sessions from an address give their count back: they never exhaust it.
    const owner = await verifiedUser(t.app);
    const good = '10.31.3.3';
    for (let i = 0; i < FAILED_LIMIT + 2; i++) expect((await get('/v1/auth/session', cookie(owner.session_token), good)).statusCode).toBe(200);
  });
});
