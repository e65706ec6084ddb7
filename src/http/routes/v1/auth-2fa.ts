import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../../kernel/errors.js';
import { disableTotp, setupTotp, verifyTotpSetup } from '../../../platform/people/second-factor.js';
import { requestMeta, sessionOf } from '../../request-meta.js';
import { CodeBody, DisableBody, TotpDisabled, TotpEnabled, TotpSetup } from '../../schemas/two-factor.js';

/**
 * TOTP second factor (RFC 6238) with one-time recovery codes. Turning it on is a
 * sensitive action and never a proof: it needs a proof within the step-up window
 * and a confirmed e-mail, and leaves the session's proof time where it was.
 */
export const twoFactorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['auth'];

  app.post('/v1/auth/2fa/setup', {
    config: { sessionOnly: true, stepUp: true },
    schema: {
      tags, summary: 'Start TOTP: a new secret, its otpauth:// URI and a QR code',
      description: 'Needs a recent sign-in or step-up (10 minutes) and a confirmed e-mail. Nothing changes at sign-in until POST /v1/auth/2fa/verify confirms a code. Calling it again replaces the pending secret.',
      response: { 200: TotpSetup, ...errorResponses(401, 403, 409, 429) },
    },
  }, async (request) => setupTotp(app.ctx, sessionOf(request)));

  app.post('/v1/auth/2fa/verify', {
    config: { sessionOnly: true, stepUp: true },
    schema: {
      tags, summary: 'Enable TOTP with a first code; answers 10 recovery codes, shown once',
      description: 'Needs a recent sign-in or step-up (10 minutes). Enabling TOTP does not renew that proof. A notice goes to your e-mail and to the account\'s notifications.',
      body: CodeBody, response: { 200: TotpEnabled, ...errorResponses(401, 403, 409, 415, 422, 429) },
    },
  }, async (request) => verifyTotpSetup(app.ctx, sessionOf(request), request.body.code, requestMeta(request)));

  app.post('/v1/auth/2fa/disable', {
    config: { sessionOnly: true, stepUp: true },
    schema: {
      tags, summary: 'Disable TOTP (needs a recent sign-in and a fresh code or recovery code)',
      body: DisableBody, response: { 200: TotpDisabled, ...errorResponses(401, 403, 409, 415, 422, 429) },
    },
  }, async (request) => disableTotp(app.ctx, sessionOf(request), request.body, requestMeta(request)));
};
