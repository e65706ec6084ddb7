import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AuthInfo } from '../../app-context.js';
import { SANDBOX_ACCOUNT_ID, SANDBOX_PUBLIC_KEY, hashApiKey } from '../../infra/identity/api-key.js';
import { closedAccountScopes } from '../../infra/identity/roles.js';
import { scopeCovers } from '../../infra/identity/scopes.js';
import { ApiError } from '../../kernel/errors.js';
import { findApplicationByKeyHash } from '../../infra/storage/repositories/application-repository.js';
import { authenticateSession, isSessionToken } from '../../platform/people/session-auth.js';
import { requireRecentProof } from '../../platform/people/step-up.js';
import { SESSION_COOKIE, readCookie } from '../session-cookie.js';
import { checkOrigin } from '../csrf.js';
import { resetBetween } from '../../platform/sandbox/reset-schedule.js';
import { SANDBOX_RESET_SIGNAL } from '../../platform/sandbox/sandbox-reset.js';

// A key lookup per request would put a database round trip on every sale; a short cache keeps the
// hot path in memory while a revoked key stops working within CACHE_MS on every process.
const CACHE_MS = 5_000;
const CACHE_MAX = 10_000;

interface Cached {
  auth: AuthInfo | null;
  until: number;
  /** The gateway clock when looked up: a sandbox reset since then wiped the key, perhaps in another process. */
  at: Date;
}

export const authPlugin = fp(
  async (app: FastifyInstance) => {
    const cache = new Map<string, Cached>();
    const sandboxAuth: AuthInfo = { accountId: SANDBOX_ACCOUNT_ID, applicationId: null, scopes: ['*'], sharedSandbox: true };

    async function resolve(key: string): Promise<AuthInfo | null> {
      if (key === SANDBOX_PUBLIC_KEY) return app.ctx.config.env === 'sandbox' ? sandboxAuth : null;
      const hash = hashApiKey(key);
      const cacheKey = hash.toString('base64');
      const now = Date.now();
      const hit = cache.get(cacheKey);
      if (hit && hit.until > now && !resetBetween(app.ctx.config.sandboxResetAt, hit.at, app.ctx.clock.now())) return hit.auth;
      const row = await findApplicationByKeyHash(app.ctx.db, hash, app.ctx.clock.now());
      // A closed account's keys were revoked with it; one that escaped (created concurrently) only reads.
      const auth = row
        ? { accountId: row.account_id, applicationId: row.id, scopes: row.account_closed ? closedAccountScopes(row.scopes) : row.scopes, accountClosed: row.account_closed }
        : null;
      if (cache.size >= CACHE_MAX) cache.clear();
      cache.set(cacheKey, { auth, until: now + CACHE_MS, at: app.ctx.clock.now() });
      return auth;
    }

    app.decorate('forgetApiKeys', () => cache.clear());
    // A sandbox reset in any process wiped every application: forget their keys now.
    const stopListening = app.ctx.notifications.subscribe(SANDBOX_RESET_SIGNAL, () => cache.clear());
    app.addHook('onClose', async () => stopListening());
    // A key this process found valid less than CACHE_MS ago: the rate limiter counts its request on
    // the key alone, not against the IP's budget for failed keys (see src/http/plugins/rate-limit.ts).
    app.decorate('knownValidKey', (header: string | undefined): boolean => {
      const key = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
      if (!key || key === SANDBOX_PUBLIC_KEY) return false;
      const hit = cache.get(hashApiKey(key).toString('base64'));
      return hit !== undefined && hit.auth !== null && hit.until > Date.now();
    });
    app.decorateRequest('auth', null as unknown as AuthInfo);

    app.addHook('onRequest', async (request: FastifyRequest) => {
      const routeConfig = request.routeOptions.config;
      if (routeConfig?.public || !request.routeOptions.url) return; // unknown routes answer 404 below
      const read = readBearer(request.headers.authorization);
      // A browser sends the dashboard session as the __Host-session cookie instead of a header.
      const cookie = 'missing' in read ? readCookie(request.headers.cookie, SESSION_COOKIE) : undefined;
      if ('missing' in read && !cookie) {
        throw new ApiError('unauthorized', 'Missing API key: send "Authorization: Bearer <api key>"', undefined, { 'WWW-Authenticate': 'Bearer' });
      }
      if ('problem' in read) {
        throw new ApiError('unauthorized', `Authorization header must be "Bearer <api key>": ${read.problem}`, undefined, {
          'WWW-Authenticate': 'Bearer error="invalid_request"',
        });
      }
      const token = cookie ?? ('key' in read ? read.key : '');
      if (isSessionToken(token) || cookie) {
        // Cookies ride along on cross-site requests: a mutating one must come from the dashboard's origin (CSRF).
        if (cookie) checkOrigin(request, app.ctx.config.people.dashboardOrigins);
        const grant = await authenticateSession(app.ctx, token);
        if (!grant) {
          throw new ApiError('unauthorized', 'The session expired or was revoked: sign in again (or refresh it)', undefined, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
        }
        request.auth = { accountId: grant.accountId, applicationId: null, scopes: grant.scopes, session: grant.actor };
        return;
      }
      const auth = await resolve(token);
      if (!auth) {
        throw new ApiError('unauthorized', 'Invalid API key', undefined, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
      }
      request.auth = auth;
    });
  },
  // After the per-IP rate limit, so a flood of wrong keys is refused before its lookups.
  { name: 'auth', dependencies: ['error-handler', 'rate-limit-client'] },
);

/**
 * The key of an `Authorization: Bearer <api key>` header, or what is wrong with the header. The
 * header's content is never quoted back (a key sent the wrong way is still a secret); only a word
 * that looks like a scheme name is.
 */
export function readBearer(header: string | string[] | undefined): { key: string } | { missing: true } | { problem: string } {
  const text = typeof header === 'string' ? header.trim() : '';
  if (text === '') return { missing: true };
  const match = /^Bearer\s+(\S+)$/i.exec(text);
  if (match) return { key: match[1]! };
  const [scheme = '', ...rest] = text.split(/\s+/);
  if (/^Bearer$/i.test(scheme)) return { problem: rest.length === 0 ? 'the key after "Bearer" is empty' : 'the key must be one word, without spaces' };
  if (rest.length === 0) return { problem: 'the "Bearer " prefix is missing' };
  return { problem: /^[A-Za-z][A-Za-z-]{0,19}$/.test(scheme) ? `it uses the scheme "${scheme}"` : 'it uses another scheme' };
}

/**
 * The scope check, apart from authentication so that it runs after the per-key rate limit: a valid
 * key lacking a scope is counted on its application like any other request (src/http/plugins/rate-limit.ts).
 */
export const scopePlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', async (request: FastifyRequest) => {
      const config = request.routeOptions.config;
      if (config?.public || !request.routeOptions.url) return;
      const session = request.auth.session;
      if (config?.sessionOnly && !session) {
        throw new ApiError('forbidden', 'This operation is done by a person: call it with a dashboard session, not an API key');
      }
      if (session && !session.emailVerified && !config?.allowUnverified) {
        throw new ApiError('email_not_verified', 'Confirm your e-mail first: open the link we sent (POST /v1/auth/verify-email/resend sends another)');
      }
      const needed = config?.scope;
      if (needed) requireScope(request, needed);
      if (session && config?.stepUp) requireRecentProof(session.authenticatedAt, app.ctx.clock.now(), app.ctx.config.people.stepUpSeconds);
    });
    // After the body was read and validated (a malformed request is still a 400/422 first).
    app.addHook('preHandler', async (request: FastifyRequest) => {
      const needed = request.routeOptions.config?.scope;
      if (!request.auth?.sharedSandbox || !needed) return;
      const wanted = typeof needed === 'string' ? [needed] : needed;
      if (!wanted.every((w) => SHARED_SANDBOX_READ_ONLY.has(w))) return;
      throw new ApiError('shared_sandbox_read_only',
        'sk_sandbox_public is shared by everyone trying the sandbox, so its account-wide settings (profile and tax regime, technical responsible, API keys, members, plan) cannot be changed with it. ' +
        'Sign up (POST /v1/auth/signup, or the dashboard) for an account of your own; issuers and documents work with this key.');
    });
  },
  { name: 'scopes', dependencies: ['auth'] },
);

/**
 * What the shared sandbox key may not change: settings every user of the key shares.
 * Issuers, documents and webhooks stay usable with it.
 */
const SHARED_SANDBOX_READ_ONLY: ReadonlySet<string> = new Set(['account:write', 'applications:write', 'members:write', 'billing:write']);

/**
 * 403 unless the caller's scopes cover `needed` (a list: any one of it). Routes name theirs in
 * `config.scope`; a handler whose record decides the scope (an NF-e or NFC-e inutilization) calls it.
 */
export function requireScope(request: FastifyRequest, needed: string | readonly string[]): void {
  const wanted = typeof needed === 'string' ? [needed] : needed;
  if (wanted.some((w) => scopeCovers(request.auth.scopes, w))) return;
  const session = request.auth.session;
  if ((session?.accountClosed || request.auth.accountClosed) && wanted.every((w) => w.endsWith(':write'))) {
    throw new ApiError('account_closed', 'This account was closed: its documents stay readable for export, nothing can be changed');
  }
  const named = wanted.map((w) => `"${w}"`).join(' or ');
  throw new ApiError('forbidden', session
    ? `Your role (${session.role}) does not allow this: it needs the scope ${named}`
    : `This API key lacks the scope ${named}`);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Drops cached key lookups (after a revoke or rotation in this process). */
    forgetApiKeys(): void;
    /** The Authorization header carries a key this process recently found valid. */
    knownValidKey(header: string | undefined): boolean;
  }
}
