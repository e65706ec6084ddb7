import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../../kernel/errors.js';
import { withInProcessFallback } from '../../infra/storage/rate-limit-fallback.js';
import type { RateLimitStore, Taken } from '../../infra/storage/rate-limit-store.js';
import { RATE_WINDOW_MS, type RateVerdict } from '../../infra/storage/rate-limit-window.js';
import { isSessionToken } from '../../platform/people/session-auth.js';
import { readCookie, SESSION_COOKIE } from '../session-cookie.js';
import { readBearer } from './auth.js';

/**
 * Rate limits (docs/guides/api.md#contract-limits) over a sliding 60-second window
 * (src/infra/storage/rate-limit-window.ts), in two steps around authentication:
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
 * The dashboard's own traffic (a session, by cookie or `Bearer st_...`) is counted per session
 * (SESSION_RATE_LIMIT_PER_MINUTE), in both environments, never on the address's API budget (* item 3: the sandbox's 60 per address, shared by curl and the dashboard, left a few reloads on a
 * spinner). Before the session is looked up the request is counted against its IP on the budget of
 * failed credentials, given back once the session proves valid: a flood of made-up cookies still
 * gets 429 without a lookup each.
 *
 * Public answers (/healthz, /docs, /docs/json, the dashboard's page and files, /changelog.md) are
 * not counted, yet carry the headers too (docs/guides/api.md#contract-limits: every 2xx answer carries them): they describe the
 * address's own budget, the one its next request without a valid key or session meets (sandbox:
 * the per-IP limit; production: the per-IP budget of failed credentials), read without taking from it.
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
        // /healthz/deep: public for load balancers, counted per address on a budget of its own.
        const taken = await store.take(`health-ip:${request.ip}`, config.rateLimitPerMinute, clock.now().getTime());
        return apply(request, reply, taken, `Too many health checks from this address (limit ${config.rateLimitPerMinute} per minute)`);
      }
      if (request.routeOptions.config?.public && request.routeOptions.config.limitPerIp) {
        // Sign-in, sign-up and links from e-mails: public, yet counted per address.
        const taken = await store.take(`auth-ip:${request.ip}`, authLimit, clock.now().getTime());
        return apply(request, reply, taken, `Too many sign-in requests from this address (limit ${authLimit} per minute)`);
      }
      if (request.routeOptions.config?.public) {
        // docs/guides/api.md#contract-limits: a 2xx answer carries the headers, a public one included; it spends nothing.
        return headers(reply, await store.peek(`ip:${request.ip}`, limit, clock.now().getTime()));
      }
      if (!isLimited(request)) return;
      if (carriesSession(request)) {
        // Counted on its session once valid (keyRateLimitPlugin); until then against the IP's failed-credentials budget.
        const failedLimit = config.rateLimitUnauthenticatedPerMinute;
        const taken = await store.take(`ses-ip:${request.ip}`, failedLimit, clock.now().getTime());
        apply(request, reply, taken, `Too many requests without a valid session from this address (limit ${failedLimit} per minute)`);
        request.rateLimitPreAuth = taken;
        return;
      }
      if (!sandbox && app.knownValidKey(request.headers.authorization)) return; // counted on its key
      const taken = await store.take(`ip:${request.ip}`, limit, clock.now().getTime());
      apply(request, reply, taken, refused);
      if (!sandbox) request.rateLimitPreAuth = taken;
    });
  },
  { name: 'rate-limit-client', dependencies: ['error-handler'] },
);

/**
 * Once the credential is known valid: a dashboard session counts on itself (both environments); in
 * production an API key counts on its application, not on the IP (docs/guides/api.md#contract-limits: per IP in the sandbox).
 */
export const keyRateLimitPlugin = fp(
  async (app: FastifyInstance) => {
    const { config, clock } = app.ctx;
    const sandbox = config.env === 'sandbox';
    const keyLimit = config.rateLimitPerMinute;
    const sessionLimit = config.people.sessionRateLimitPerMinute;
    app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      const session = request.auth?.session;
      const applicationId = sandbox ? null : request.auth?.applicationId;
      if ((!session && !applicationId) || !isLimited(request)) return;
      const preAuth = request.rateLimitPreAuth;
      if (preAuth) {
        request.rateLimitPreAuth = null;
        await preAuth.giveBack();
      }
      const now = clock.now().getTime();
      if (session) {
        const taken = await app.rateLimitStore.take(`ses:${session.sessionId}`, sessionLimit, now);
        return apply(request, reply, taken, `Rate limit of ${sessionLimit} requests per minute for this session exceeded`);
      }
      const taken = await app.rateLimitStore.take(`app:${applicationId}`, keyLimit, now);
      apply(request, reply, taken, `Rate limit of ${keyLimit} requests per minute for this API key exceeded`);
    });
  },
  { name: 'rate-limit-key', dependencies: ['rate-limit-client', 'auth'] },
);

/** A dashboard session: the __Host-session cookie without an Authorization header, or `Bearer st_...` (as auth reads them). */
function carriesSession(request: FastifyRequest): boolean {
  const read = readBearer(request.headers.authorization);
  if ('key' in read) return isSessionToken(read.key);
  return 'missing' in read && readCookie(request.headers.cookie, SESSION_COOKIE) !== undefined;
}

/** Public routes (health, docs) are never limited; unknown routes answer 404 without a count. */
function isLimited(request: FastifyRequest): boolean {
  return !request.routeOptions.config?.public && Boolean(request.routeOptions.url);
}

function apply(request: FastifyRequest, reply: FastifyReply, v: Taken, refused: string): void {
  request.rateLimit = v;
  headers(reply, v);
  if (v.allowed) return;
  const retryAfter = Math.max(1, Math.ceil(v.retryAfterMs / 1000));
  throw new ApiError('rate_limited', `${refused}; retry in ${retryAfter} s`, undefined, { 'Retry-After': String(retryAfter) });
}

function headers(reply: FastifyReply, v: RateVerdict): void {
  reply.header('X-RateLimit-Limit', v.limit);
  reply.header('X-RateLimit-Remaining', v.remaining);
  reply.header('X-RateLimit-Reset', Math.ceil(v.resetMs / 1000));
  reply.header('X-RateLimit-Window', RATE_WINDOW_MS / 1000);
}

declare module 'fastify' {
  interface FastifyInstance {
    rateLimitStore: RateLimitStore;
  }
  interface FastifyRequest {
    rateLimit: RateVerdict | null;
    /** The request's count against its IP, given back once its key (production) or session proves valid. */
    rateLimitPreAuth: Taken | null;
  }
}
