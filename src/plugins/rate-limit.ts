import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../http/errors.js';
import type { RateLimitStore } from '../storage/rate-limit-store.js';

const WINDOW_MS = 60_000;

interface Verdict {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

/**
 * Fixed one-minute windows (SPEC 8): per client IP in the sandbox, per API key in production.
 * Every answer carries the four X-RateLimit-* headers (DESIGN 4: Reset and Window in seconds).
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, opts: { store: RateLimitStore }) => {
    const limit = app.ctx.config.rateLimitPerMinute;
    const perIp = app.ctx.config.env === 'sandbox';
    const fallback = new Map<string, number>();

    app.decorateRequest('rateLimit', null);

    app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.routeOptions.config?.public || !request.routeOptions.url) return;
      const nowMs = app.ctx.clock.now().getTime();
      const windowStart = Math.floor(nowMs / WINDOW_MS) * WINDOW_MS;
      const who = perIp || !request.auth?.applicationId ? `ip:${request.ip}` : `app:${request.auth.applicationId}`;
      const key = `${who}:${windowStart}`;
      let count: number;
      try {
        count = await opts.store.hit(key, WINDOW_MS);
      } catch (err) {
        // A shared counter outage must not take the API down: count in process until it is back.
        request.log.warn({ err }, 'rate limit store unavailable; counting in process');
        count = (fallback.get(key) ?? 0) + 1;
        fallback.set(key, count);
      }
      const verdict: Verdict = {
        limit,
        remaining: Math.max(0, limit - count),
        resetSeconds: Math.max(1, Math.ceil((windowStart + WINDOW_MS - nowMs) / 1000)),
      };
      request.rateLimit = verdict;
      setHeaders(reply, verdict);
      if (count > limit) {
        throw new ApiError(
          'rate_limited',
          `Rate limit of ${limit} requests per minute exceeded; retry in ${verdict.resetSeconds} s`,
          undefined,
          { 'Retry-After': String(verdict.resetSeconds) },
        );
      }
    });
  },
  { name: 'rate-limit', dependencies: ['auth'] },
);

function setHeaders(reply: FastifyReply, v: Verdict): void {
  reply.header('X-RateLimit-Limit', v.limit);
  reply.header('X-RateLimit-Remaining', v.remaining);
  reply.header('X-RateLimit-Reset', v.resetSeconds);
  reply.header('X-RateLimit-Window', WINDOW_MS / 1000);
}

declare module 'fastify' {
  interface FastifyRequest {
    rateLimit: Verdict | null;
  }
}
