import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { stringifySetCookie } from 'cookie';
import { Type } from 'typebox';
import { errorResponses } from '../../../kernel/errors.js';
import { finishSso } from '../../../platform/people/sso-callback.js';
import { startSso } from '../../../platform/people/sso-start.js';
import { OAUTH_COOKIE } from '../../../platform/people/sso-state.js';
import { requestMeta } from '../../request-meta.js';
import { IssuedSession } from '../../schemas/auth.js';
import { SignInMethods, SSO_PROVIDERS, SsoCallbackQuery, SsoProviderParams, SsoStartQuery } from '../../schemas/sso.js';
import { readCookie, setSessionCookies } from '../../session-cookie.js';
import { setDeviceCookie } from '../../device-cookie.js';

// The sealed flow cookie is about 250 characters; anything much longer is not ours.
const OAUTH_COOKIE_MAX = 1024;

/**
 * `__Host-oauth` binds a sign-in flow to the browser that started it: HttpOnly (no script reads
 * the sealed PKCE verifier), Secure + host-only + Path=/ (`__Host-`), SameSite=Lax so that the
 * provider's top-level redirect back to the callback carries it, and it lives as long as the state.
 */
const flowCookie = (value: string, maxAge: number) =>
  stringifySetCookie({ name: OAUTH_COOKIE, value, path: '/', httpOnly: true, secure: true, sameSite: 'lax', maxAge });

/** Single sign-on with Google or Microsoft: OpenID Connect, code flow with PKCE. */
export const ssoRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['auth'];
  const open = { public: true, limitPerIp: true } as const;
  const cookieAge = app.ctx.config.people.sessionAbsoluteSeconds;

  app.get('/v1/auth/methods', {
    config: open,
    schema: {
      tags, summary: 'How one can sign in here: password, passkey and the configured single sign-on providers', security: [],
      description: 'Public: the dashboard\'s sign-in page asks it to show a button per configured provider (a slot without a client id is not listed).',
      response: { 200: SignInMethods, ...errorResponses(429) },
    },
  }, async () => ({
    object: 'sign_in_methods' as const,
    password: true,
    passkey: true,
    sso: SSO_PROVIDERS.filter((p) => app.ctx.config.sso.providers[p]).map((provider) => ({ provider, start_url: `/v1/auth/oauth/${provider}/start` })),
  }));

  app.get('/v1/auth/oauth/:provider/start', {
    config: open,
    schema: {
      tags, summary: 'Start single sign-on: redirects to the provider', security: [],
      description: 'Answers 302 to the provider\'s sign-in page and sets the `__Host-oauth` cookie that binds the flow to this browser (10 minutes). A slot without a client id answers 404. Register `{PUBLIC_BASE_URL}/v1/auth/oauth/{provider}/callback` as the redirect URI at the provider.',
      params: SsoProviderParams,
      querystring: SsoStartQuery,
      response: { 302: Type.Null({ description: 'To the provider; `Location` holds the authorization URL' }), ...errorResponses(404, 422, 429, 503) },
    },
  }, async (request, reply) => {
    const started = await startSso(app.ctx, request.params.provider, request.query);
    reply.header('Cache-Control', 'no-store').header('Set-Cookie', flowCookie(started.cookie, started.maxAgeSeconds));
    return reply.redirect(started.location, 302);
  });

  app.get('/v1/auth/oauth/:provider/callback', {
    config: open,
    schema: {
      tags, summary: 'Where the provider sends the browser back: signs in and redirects to the dashboard', security: [],
      description: 'Checks the state (signature, expiry, provider, single use) against the `__Host-oauth` cookie, exchanges the code with the PKCE verifier and checks the ID token (issuer, audience, expiry, nonce, signature). A known identity signs in its user; a verified e-mail links to the user with that e-mail (if that user confirmed it); otherwise a new user and account are created (an unverified e-mail must then be confirmed by the usual link, and never links to an existing user: 403). Sets the session cookies and answers 302 to the dashboard (`return_to` of the start), or the session as JSON with `Accept: application/json`.',
      params: SsoProviderParams,
      querystring: SsoCallbackQuery,
      response: { 200: IssuedSession, 302: Type.Null({ description: 'To the dashboard, signed in' }), ...errorResponses(400, 401, 403, 404, 409, 422, 429, 503) },
    },
  }, async (request, reply) => {
    const rawQuery = request.raw.url?.split('?')[1] ?? '';
    const cookie = readCookie(request.headers.cookie, OAUTH_COOKIE, OAUTH_COOKIE_MAX);
    const done = await finishSso(app.ctx, request.params.provider, new URLSearchParams(rawQuery), cookie, requestMeta(request));
    setSessionCookies(reply, done.issued, cookieAge);
    await setDeviceCookie(app.ctx, request, reply, done.issued.session.user_id);
    // The flow is spent: its cookie goes too.
    reply.header('Cache-Control', 'no-store').header('Set-Cookie', flowCookie('', 0));
    if (/\bapplication\/json\b/i.test(request.headers.accept ?? '')) return reply.code(200).send(done.issued);
    return reply.redirect(`${app.ctx.config.people.dashboardUrl}${done.returnTo ?? '/'}`, 302);
  });
};
