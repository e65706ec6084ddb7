import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../../kernel/errors.js';
import { ApiError } from '../../../kernel/errors.js';
import { verifyEmail, resendVerification } from '../../../platform/people/email-verification.js';
import { loginWithPassword } from '../../../platform/people/login.js';
import { getMe, listMySessions, logout, revokeMySession } from '../../../platform/people/my-sessions.js';
import { requestPasswordReset, resetPassword } from '../../../platform/people/password-reset.js';
import { reauthenticate } from '../../../platform/people/reauthenticate.js';
import { answerWithCode } from '../../../platform/people/second-factor.js';
import { refreshSession, type IssuedSession as Issued } from '../../../platform/people/session-lifecycle.js';
import { signup } from '../../../platform/people/signup.js';
import { switchAccount } from '../../../platform/people/switch-account.js';
import { checkOrigin } from '../../csrf.js';
import { requestMeta, sessionOf } from '../../request-meta.js';
import {
  ForgotBody, IssuedSession, LoginBody, LoginChallenge, Me, ReauthBody, RefreshBody, ResendAnswer, ResetBody,
  SecondFactorBody, SessionInfo, SignupAnswer, SignupBody, TokenBody, VerifiedEmail,
} from '../../schemas/auth.js';
import { IdParams } from '../../schemas/common.js';
import { PasswordReset } from '../../schemas/factors.js';
import { SwitchAccountBody } from '../../schemas/auth.js';
import { clearSessionCookies, readCookie, REFRESH_COOKIE, setSessionCookies } from '../../session-cookie.js';
import { setDeviceCookie } from '../../device-cookie.js';

/** Sign-up, sign-in, second factor, refresh, sign-out, e-mail links and one's own sessions. */
export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['auth'];
  const open = { public: true, limitPerIp: true } as const;
  const cookieAge = app.ctx.config.people.sessionAbsoluteSeconds;
  const withCookies = <T extends Issued | object>(reply: Parameters<typeof setSessionCookies>[0], answer: T): T => {
    if ('session_token' in answer) setSessionCookies(reply, answer as Issued, cookieAge);
    return answer;
  };
  // A completed sign-in (not a refresh, not a challenge) also marks the browser as the user's (device cookie).
  const signedIn = async <T extends Issued | object>(request: Parameters<typeof setDeviceCookie>[1], reply: Parameters<typeof setSessionCookies>[0], answer: T): Promise<T> => {
    if ('session_token' in answer) await setDeviceCookie(app.ctx, request, reply, (answer as Issued).session.user_id);
    return withCookies(reply, answer);
  };

  app.post('/v1/auth/signup', {
    config: open,
    schema: {
      tags, summary: 'Create a user and their account', security: [],
      description: 'Creates the user, an account they own and a first session; sends a verification link by e-mail (in the sandbox without SMTP it is captured: GET /v1/sandbox/mail, readable by the new session, and the answer carries it as `sandbox_verification`). Until the e-mail is confirmed the session reaches only the auth routes, GET /v1/account and the sandbox mail. Also sets the `__Host-session` and `__Host-refresh` cookies. An e-mail that already has a user gets the same answer (201, same shape, same cookies) whose tokens open nothing, and the address\'s owner is told by e-mail: the answer does not say who has an account.',
      body: SignupBody,
      response: { 201: SignupAnswer, ...errorResponses(400, 415, 422, 429) },
    },
  }, async (request, reply) => reply.code(201).send(withCookies(reply, await signup(app.ctx, request.body, requestMeta(request)))));

  app.post('/v1/auth/login', {
    config: open,
    schema: {
      tags, summary: 'Sign in with e-mail and password', security: [],
      description: 'Answers a session, or, when the user has a second factor, a `login_challenge` to answer at POST /v1/auth/login/second-factor (TOTP or recovery code) or with a passkey. An unknown e-mail and a wrong password get the same 401 in the same time. Failed attempts slow further ones per e-mail and per address (429 with Retry-After), never a permanent lock. A completed sign-in sets the `__Host-device` cookie: a browser that presents it with its user\'s e-mail is not slowed by that e-mail\'s failures (somebody else\'s), only by its address\'s and its own (10 failures an hour lock that cookie for the rest of the hour).',
      body: LoginBody,
      response: { 200: Type.Union([IssuedSession, LoginChallenge]), ...errorResponses(400, 401, 403, 415, 422, 429) },
    },
  }, async (request, reply) => signedIn(request, reply, await loginWithPassword(app.ctx, request.body, requestMeta(request))));

  app.post('/v1/auth/login/second-factor', {
    config: open,
    schema: {
      tags, summary: 'Answer a sign-in challenge with a TOTP code or a recovery code', security: [],
      body: SecondFactorBody,
      response: { 200: IssuedSession, ...errorResponses(400, 401, 415, 422, 429) },
    },
  }, async (request, reply) => signedIn(request, reply, await answerWithCode(app.ctx, request.body, requestMeta(request))));

  app.post('/v1/auth/refresh', {
    config: open,
    schema: {
      tags, summary: 'Trade a refresh token for a new session token and refresh token', security: [],
      description: 'Each refresh token works once. Presented again after a 30-second grace (REFRESH_REUSE_GRACE_SECONDS), it revokes its whole session (a copy is in someone else\'s hands), which is audited. Refresh never extends the session past its absolute end. Browsers may send the `__Host-refresh` cookie instead of the body field.',
      body: RefreshBody,
      response: { 200: IssuedSession, ...errorResponses(400, 401, 403, 415, 422, 429) },
    },
    // A browser refreshing by cookie sends no body at all.
    preValidation: async (request) => {
      request.body ??= {};
    },
  }, async (request, reply) => {
    const fromCookie = request.body.refresh_token ? undefined : readCookie(request.headers.cookie, REFRESH_COOKIE);
    if (fromCookie) checkOrigin(request, app.ctx.config.people.dashboardOrigins);
    const token = request.body.refresh_token ?? fromCookie;
    if (!token) throw new ApiError('validation_error', 'Send refresh_token (or the __Host-refresh cookie)', [{ field: 'refresh_token', message: 'is required' }]);
    return withCookies(reply, await refreshSession(app.ctx, token, requestMeta(request)));
  });

  app.post('/v1/auth/logout', {
    config: { sessionOnly: true, allowUnverified: true },
    schema: { tags, summary: 'Sign out: revoke this session and its refresh token', response: { 204: Type.Null(), ...errorResponses(401, 403, 429) } },
  }, async (request, reply) => {
    await logout(app.ctx, sessionOf(request));
    clearSessionCookies(reply);
    return reply.code(204).send(null);
  });

  app.post('/v1/auth/verify-email', {
    config: open,
    schema: { tags, summary: 'Confirm an e-mail address with the token of the link we sent', security: [], body: TokenBody, response: { 200: VerifiedEmail, ...errorResponses(400, 415, 422, 429) } },
  }, async (request) => verifyEmail(app.ctx, request.body.token));

  app.post('/v1/auth/verify-email/resend', {
    config: { sessionOnly: true, allowUnverified: true },
    schema: { tags, summary: 'Send a new verification link (the previous one stops working)', response: { 200: ResendAnswer, ...errorResponses(401, 403, 429) } },
  }, async (request) => resendVerification(app.ctx, sessionOf(request).userId, request.auth.accountId));

  app.post('/v1/auth/password/forgot', {
    config: { ...open, publicIdempotency: true },
    schema: {
      tags, summary: 'E-mail a password reset link', security: [],
      description: 'Answers 202 whether or not the e-mail has a user, after the same work (the link is sent by a background job), so neither the answer nor its time tells who signed up. The link works once, for an hour. An `Idempotency-Key` sent again with the same body within 24 hours replays the answer (`Idempotency-Replay: true`) and sends no second link.',
      body: ForgotBody, response: { 202: Type.Object({ accepted: Type.Literal(true) }), ...errorResponses(400, 415, 422, 429) },
    },
  }, async (request, reply) => {
    await requestPasswordReset(app.ctx, request.body.email);
    return reply.code(202).send({ accepted: true });
  });

  app.post('/v1/auth/password/reset', {
    config: open,
    schema: {
      tags, summary: 'Choose a new password with the token of the reset link', security: [],
      description: 'Every session of the user ends (whoever knew the old password is signed out), and so does any sign-in waiting for its second factor. The answer lists every factor on the account with the date it was added: one added in the 24 hours before the reset is `suspended` (it signs nobody in) until you sign in with the new password and confirm it (POST /v1/auth/factors/{id}/confirm) or remove it (DELETE /v1/auth/factors/{id}). When the reset is what confirms the e-mail, every factor set up before is removed (`removed_factors`). A notice goes to the e-mail and the account\'s notifications.',
      body: ResetBody, response: { 200: PasswordReset, ...errorResponses(400, 415, 422, 429) },
    },
  }, async (request) => resetPassword(app.ctx, request.body.token, request.body.password, requestMeta(request)));

  app.post('/v1/auth/reauthenticate', {
    config: { sessionOnly: true, allowUnverified: true },
    schema: {
      tags, summary: 'Prove again who you are (step-up) before a sensitive action',
      description: 'Creating or rotating API keys, changing roles, transferring ownership, turning TOTP on or off, adding or removing a passkey, confirming or removing a factor after a password reset, uploading a certificate, changing billing and closing the account need a proof (password, TOTP or passkey) within the last 10 minutes; otherwise they answer 403 `reauthentication_required`.',
      body: ReauthBody, response: { 200: SessionInfo, ...errorResponses(401, 403, 415, 422, 429) },
    },
  }, async (request) => reauthenticate(app.ctx, sessionOf(request), request.body, requestMeta(request)));

  app.get('/v1/auth/session', {
    config: { sessionOnly: true, allowUnverified: true },
    schema: { tags, summary: 'Who is signed in: the user, their role and accounts, this session', response: { 200: Me, ...errorResponses(401, 403, 429) } },
  }, async (request) => getMe(app.ctx, sessionOf(request)));

  app.post('/v1/auth/switch-account', {
    config: { sessionOnly: true, allowUnverified: true },
    schema: {
      tags, summary: 'Act on another of your accounts: a new session there, this one ends',
      description: 'The new session keeps the proof of this one (methods and time; no step-up is gained) and acts with your role in that account. An account that requires single sign-on refuses a session proven otherwise (`sso_required`).',
      body: SwitchAccountBody, response: { 200: IssuedSession, ...errorResponses(401, 403, 415, 422, 429) },
    },
  }, async (request, reply) => withCookies(reply, await switchAccount(app.ctx, sessionOf(request), request.body.account_id, requestMeta(request))));

  app.get('/v1/auth/sessions', {
    config: { sessionOnly: true, allowUnverified: true },
    schema: {
      tags, summary: 'Your live sessions (devices), newest first',
      response: { 200: Type.Object({ data: Type.Array(Type.Intersect([SessionInfo, Type.Object({ current: Type.Boolean() })])), has_more: Type.Boolean() }, { title: 'SessionList' }), ...errorResponses(401, 403, 429) },
    },
  }, async (request) => listMySessions(app.ctx, sessionOf(request)));

  app.delete('/v1/auth/sessions/:id', {
    config: { sessionOnly: true, allowUnverified: true },
    schema: { tags, summary: 'Sign out one of your sessions (another device)', params: IdParams, response: { 204: Type.Null(), ...errorResponses(401, 403, 404, 429) } },
  }, async (request, reply) => {
    await revokeMySession(app.ctx, sessionOf(request), request.params.id);
    return reply.code(204).send(null);
  });
};
