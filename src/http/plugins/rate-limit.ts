import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../../kernel/errors.js';
import { withInProcessFallback } from '../../platform/storage/rate-limit-fallback.js';
import type { RateLimitStore, Taken } from '../../platform/storage/rate-limit-store.js';
import { RATE_WINDOW_MS, type RateVerdict } from '../../platform/storage/rate-limit-window.js';

/**
 * Rate limits (SPEC 8, issue 12 defect 6) over a sliding 60-second window
 * (src/platform/storage/rate-limit-window.ts), in two steps around authentication:
 *
 * 1. Before authentication (this plugin, registered before `auth`), every request to a non-public
 *    route is counted against its client IP, whatever its key: a flood of missing or wrong keys gets
 *    429 without a key lookup in the database. In the sandbox this per-IP count is the limit
 *    (RATE_LIMIT_PER_MINUTE per IP). In production it is the budget of requests that fail
 *    authentication (RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE per IP): a request whose key is valid is
 *    given back to the IP and counted on its application instead (keyRateLimitPlugin below). A key
 *    this process already knows valid (auth's 5-second cache) skips the IP count altogether: a burst
 *    of good requests never spends the IP's budget, and a flood of bad keys from a shared address
 *    (a shop's NAT) does not lock out the good keys behind it.
 * 2. After authentication, in production, every request is counted per application
 *    (RATE_LIMIT_PER_MINUTE per API key's application).
 *
 * Every limited answer, 401 and 429 included, carries X-RateLimit-Limit, -Remaining (requests
 * accepted right now before a 429), -Reset (seconds until every counted request has left the
 * window, i.e. the whole limit is back) and -Window (60). A 429 adds Retry-After: the seconds until
 * the next request would be accepted (rounded up).
 */
export const clientRateLimitPlugin = fp(
  async (app: FastifyInstance, opts: { store: RateLimitStore }) => {
    const { config, clock } = app.ctx;
    const store = withInProcessFallback(opts.store, {
      warn: (fields, message) => app.log.warn(fields, message),
      nowMs: () => clock.now().getTime(),
    });
    const sandbox = config.env === 'sandbox';
    const limit = sandbox ? config.rateLimitPerMinute : config.rateLimitUnauthenticatedPerMinute;
    const refused = sandbox
      ? `Rate limit of ${limit} requests per minute from this address exceeded`
      : `Too many requests without a valid API key from this address (limit ${limit} per minute)`;

    app.decorate('rateLimitStore', store);
    app.decorateRequest('rateLimit', null);
    app.decorateRequest('rateLimitPreAuth', null);

    const authLimit = config.people.authRateLimitPerMinute;
    app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.routeOptions.config?.public && request.routeOptions.config.limitPerIp === 'health') {
        // /healthz/deep: public for load balancers, counted per address on a budget of its own (issue 28 item 11).
        const taken = await store.take(`health-ip:${request.ip}`, config.rateLimitPerMinute, clock.now().getTime());
        return apply(request, reply, taken, `Too many health checks from this address (limit ${config.rateLimitPerMinute} per minute)`);
      }
      if (request.routeOptions.config?.public && request.routeOptions.config.limitPerIp) {
        // Sign-in, sign-up and links from e-mails: public, yet counted per address (issue 14 item 1).
        const taken = await store.take(`auth-ip:${request.ip}`, authLimit, clock.now().getTime());
        return apply(request, reply, taken, `Too many sign-in requests from this address (limit ${authLimit} per minute)`);
      }
      if (!isLimited(request)) return;
      if (!sandbox && app.knownValidKey(request.headers.authorization)) return; // counted on its key
      const taken = await store.take(`ip:${request.ip}`, limit, clock.now().getTime());
      apply(request, reply, taken, refused);
      if (!sandbox) request.rateLimitPreAuth = taken;
    });
  },
  { name: 'rate-limit-client', dependencies: ['error-handler'] },
);

/** Production: once the key is known valid, the request counts on its application, not on the IP. */
export const keyRateLimitPlugin = fp(
  async (app: FastifyInstance) => {
    const { config, clock } = app.ctx;
    if (config.env === 'sandbox') return; // SPEC 8: per IP in the sandbox
    const limit = config.rateLimitPerMinute;
    app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      const preAuth = request.rateLimitPreAuth;
      // An API key counts on its application; a dashboard session on its user.
      const subject = request.auth?.applicationId ?? (request.auth?.session ? `usr:${request.auth.session.userId}` : null);
      if (!subject || !isLimited(request)) return;
      if (preAuth) {
        request.rateLimitPreAuth = null;
        await preAuth.giveBack();
      }
      const taken = await app.rateLimitStore.take(subject.startsWith('usr:') ? subject : `app:${subject}`, limit, clock.now().getTime());
      apply(request, reply, taken, `Rate limit of ${limit} requests per minute for this ${subject.startsWith('usr:') ? 'user' : 'API key'} exceeded`);
    });
  },
  { name: 'rate-limit-key', dependencies: ['rate-limit-client', 'auth'] },
);

/** Public routes (health, docs) are never limited; unknown routes answer 404 without a count. */
function isLimited(request: FastifyRequest): boolean {
  return !request.routeOptions.config?.public && Boolean(request.routeOptions.url);
}

function apply(request: FastifyRequest, reply: FastifyReply, v: Taken, refused: string): void {
  request.rateLimit = v;
  reply.header('X-RateLimit-Limit', v.limit);
  reply.header('X-RateLimit-Remaining', v.remaining);
  reply.header('X-RateLimit-Reset', Math.ceil(v.resetMs / 1000));
  reply.header('X-RateLimit-Window', RATE_WINDOW_MS / 1000);
  if (v.allowed) return;
  const retryAfter = Math.max(1, Math.ceil(v.retryAfterMs / 1000));
  throw new ApiError('rate_limited', `${refused}; retry in ${retryAfter} s`, undefined, { 'Retry-After': String(retryAfter) });
}

declare module 'fastify' {
  interface FastifyInstance {
    rateLimitStore: RateLimitStore;
  }
  interface FastifyRequest {
    rateLimit: RateVerdict | null;
    /** Production: the request's count against its IP, given back once its key proves valid. */
    rateLimitPreAuth: Taken | null;
  }
}
