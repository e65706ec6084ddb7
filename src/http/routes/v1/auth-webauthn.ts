import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../../kernel/errors.js';
import { passkeyAuthenticationOptions, passkeyStepUpOptions, verifyPasskeyAuthentication, verifyPasskeyStepUp } from '../../../platform/people/passkey-login.js';
import { deleteMyPasskey, listMyPasskeys, passkeyRegistrationOptions, verifyPasskeyRegistration } from '../../../platform/people/passkeys.js';
import { requestMeta, sessionOf } from '../../request-meta.js';
import { IssuedSession, SessionInfo } from '../../schemas/auth.js';
import { IdParams } from '../../schemas/common.js';
import {
  Passkey, PasskeyAuthenticationBody, PasskeyAuthenticationOptions, PasskeyList, PasskeyOptionsBody, PasskeyRegistrationBody,
  PasskeyRegistrationOptions, PasskeyStepUpBody,
} from '../../schemas/webauthn.js';
import { setSessionCookies } from '../../session-cookie.js';
import { setDeviceCookie } from '../../device-cookie.js';

// A WebAuthn response is a few KB (attestation "none") and an options request is {} at most; nothing
// here needs the API's 1 MiB.
const BODY_LIMIT = 64 * 1024;

/** Passkeys: register, sign in (alone or as a second factor), step up, list, remove. */
export const webauthnRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['auth'];
  const open = { public: true, limitPerIp: true } as const;
  // An unconfirmed e-mail still lists and removes its own passkeys (a passkey sign-in gets the same
  // restricted session), but cannot add one (somebody who signed up with another
  // person's address would keep a way in once the owner resets the password).
  const mine = { sessionOnly: true, allowUnverified: true } as const;
  // Adding a passkey is sensitive and no proof: a recent proof, a confirmed e-mail.
  const enrol = { sessionOnly: true, stepUp: true } as const;
  const cookieAge = app.ctx.config.people.sessionAbsoluteSeconds;

  app.post('/v1/auth/webauthn/registration/options', {
    config: enrol,
    bodyLimit: BODY_LIMIT,
    schema: {
      tags, summary: 'Start adding a passkey: options for navigator.credentials.create()',
      description: 'Needs a recent sign-in or step-up (10 minutes) and a confirmed e-mail. A discoverable credential (it can sign in without an e-mail), user verification preferred, none of your passkeys again (`excludeCredentials`). The challenge works once, for 5 minutes, from this session only.',
      response: { 200: PasskeyRegistrationOptions, ...errorResponses(401, 403, 409, 429) },
    },
  }, async (request) => passkeyRegistrationOptions(app.ctx, sessionOf(request)));

  app.post('/v1/auth/webauthn/registration/verify', {
    config: enrol,
    bodyLimit: BODY_LIMIT,
    schema: {
      tags, summary: 'Finish adding a passkey: the browser\'s RegistrationResponseJSON (and a name)',
      body: PasskeyRegistrationBody,
      response: { 201: Passkey, ...errorResponses(400, 401, 403, 409, 413, 415, 422, 429) },
    },
  }, async (request, reply) => reply.code(201).send(await verifyPasskeyRegistration(app.ctx, sessionOf(request), request.body, requestMeta(request))));

  app.post('/v1/auth/webauthn/authentication/options', {
    config: open,
    bodyLimit: BODY_LIMIT,
    schema: {
      tags, summary: 'Start a passkey sign-in: options for navigator.credentials.get()', security: [],
      description: 'Without a body: a sign-in with a passkey alone (the browser offers the passkeys it holds for this site; user verification required). With the `challenge_token` of a password sign-in: the passkey answers it as the second factor (only that user\'s passkeys are allowed).',
      body: PasskeyOptionsBody,
      response: { 200: PasskeyAuthenticationOptions, ...errorResponses(400, 415, 422, 429) },
    },
    // No body is the discoverable sign-in, the same as {} (a schema alone would refuse undefined).
    preValidation: async (request) => {
      request.body ??= {};
    },
  }, async (request) => passkeyAuthenticationOptions(app.ctx, request.body));

  app.post('/v1/auth/webauthn/authentication/verify', {
    config: open,
    bodyLimit: BODY_LIMIT,
    schema: {
      tags, summary: 'Finish a passkey sign-in: the browser\'s AuthenticationResponseJSON', security: [],
      description: 'Answers a session (methods `["passkey"]`, or `["password", "passkey"]` with the `challenge_token` of a password sign-in) and sets the `__Host-session` and `__Host-refresh` cookies. A passkey whose signature counter did not grow is refused (a copied authenticator). An account that requires single sign-on answers 403 `sso_required`.',
      body: PasskeyAuthenticationBody,
      response: { 200: IssuedSession, ...errorResponses(400, 401, 403, 413, 415, 422, 429) },
    },
  }, async (request, reply) => {
    const issued = await verifyPasskeyAuthentication(app.ctx, request.body, requestMeta(request));
    setSessionCookies(reply, issued, cookieAge);
    await setDeviceCookie(app.ctx, request, reply, issued.session.user_id);
    return issued;
  });

  app.post('/v1/auth/webauthn/reauthentication/options', {
    config: mine,
    bodyLimit: BODY_LIMIT,
    schema: {
      tags, summary: 'Step up with a passkey: options for navigator.credentials.get()',
      response: { 200: PasskeyAuthenticationOptions, ...errorResponses(401, 403, 409, 429) },
    },
  }, async (request) => passkeyStepUpOptions(app.ctx, sessionOf(request)));

  app.post('/v1/auth/webauthn/reauthentication/verify', {
    config: mine,
    bodyLimit: BODY_LIMIT,
    schema: {
      tags, summary: 'Step up with a passkey: sensitive actions are allowed for the next 10 minutes',
      body: PasskeyStepUpBody,
      response: { 200: SessionInfo, ...errorResponses(400, 401, 403, 413, 415, 422, 429) },
    },
  }, async (request) => verifyPasskeyStepUp(app.ctx, sessionOf(request), request.body));

  app.get('/v1/auth/webauthn/credentials', {
    config: mine,
    schema: { tags, summary: 'Your passkeys', response: { 200: PasskeyList, ...errorResponses(401, 403, 429) } },
  }, async (request) => listMyPasskeys(app.ctx, sessionOf(request)));

  app.delete('/v1/auth/webauthn/credentials/:id', {
    config: { ...mine, stepUp: true },
    schema: {
      tags, summary: 'Remove a passkey (needs a recent sign-in or step-up)',
      params: IdParams,
      response: { 204: Type.Null(), ...errorResponses(401, 403, 404, 429) },
    },
  }, async (request, reply) => {
    await deleteMyPasskey(app.ctx, sessionOf(request), request.params.id, requestMeta(request));
    return reply.code(204).send(null);
  });
};
