import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DASHBOARD_DIR } from '../src/http/dashboard.js';
import { memoryRateLimitStore } from '../src/infra/storage/rate-limit-store.js';
import { createTestApp } from './support/app.js';
import { ManualClock } from './support/clock.js';

// docs/guides/api.md#contract-limits: "Responses with a 2xx status carry X-RateLimit-Limit, X-RateLimit-Remaining,
// X-RateLimit-Reset, X-RateLimit-Window" (/healthz, /docs/json and the dashboard's
// files had none). Public answers are not counted: their headers describe the address's budget.

const HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-ratelimit-window'];

describe('X-RateLimit headers on public 2xx answers', () => {
  it('/healthz, /docs, /docs/json, /changelog.md and the dashboard carry them, describe the address budget and spend none of it', async () => {
    const L = 5;
    const clock = new ManualClock('2026-11-28T12:00:00.000Z');
    const t = await createTestApp({ clock, env: { RATE_LIMIT_PER_MINUTE: String(L) }, options: { rateLimitStore: memoryRateLimitStore() } });
    try {
      const ip = '10.78.0.1';
      const asset = readdirSync(join(DASHBOARD_DIR, 'assets')).find((f) => f.endsWith('.js'));
      expect(asset, 'the dashboard is built (npm run build)').toBeDefined();
      const publicUrls = ['/healthz', '/docs', '/docs/json', '/changelog.md', '/dashboard', '/dashboard/issuers', `/dashboard/assets/${asset}`];
      const api = () => t.app.inject({ method: 'GET', url: '/v1/ufs', headers: { authorization: 'Bearer sk_sandbox_public' }, remoteAddress: ip });

      // Two API requests from the address: 3 of 5 left, the window full again 60 s after the second.
      expect((await api()).statusCode).toBe(200);
      clock.advance(10_000);
      expect((await api()).statusCode).toBe(200);
      clock.advance(5_000);
      for (let round = 0; round < 3; round++) {
        for (const url of publicUrls) {
          const res = await t.app.inject({ method: 'GET', url, remoteAddress: ip });
          expect(res.statusCode, url).toBe(200);
          for (const h of HEADERS) expect(res.headers[h], `${url}: ${h}`).toBeDefined();
          expect(res.headers['x-ratelimit-limit'], url).toBe(String(L));
          expect(res.headers['x-ratelimit-remaining'], url).toBe(String(L - 2));
          expect(res.headers['x-ratelimit-reset'], url).toBe('55');
          expect(res.headers['x-ratelimit-window'], url).toBe('60');
        }
      }
      // 21 public answers spent nothing: the API still has its 3.
      for (let i = 0; i < L - 2; i++) expect((await api()).statusCode).toBe(200);
      expect((await api()).statusCode).toBe(429);
      const health = await t.app.inject({ method: 'GET', url: '/healthz', remoteAddress: ip });
      expect(health.statusCode).toBe(200);
      expect(health.headers['x-ratelimit-remaining']).toBe('0');
    } finally {
      await t.app.close();
    }
  });
});
