import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../../kernel/errors.js';
import { confirmMyFactor, listMyFactors, removeMyFactor } from '../../../platform/people/factors.js';
import { requestMeta, sessionOf } from '../../request-meta.js';
import { IdParams } from '../../schemas/common.js';
import { Factor, FactorList } from '../../schemas/factors.js';

/**
 * The review of one's sign-in factors after a password reset: the list with the
 * date each was added, and for a factor the reset suspended, confirm or remove. Both need a recent
 * proof, which a sign-in with the new password is.
 */
export const factorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['auth'];

  app.get('/v1/auth/factors', {
    config: { sessionOnly: true, allowUnverified: true },
    schema: { tags, summary: 'Your sign-in factors (TOTP, passkeys), oldest first, with the date each was added', response: { 200: FactorList, ...errorResponses(401, 403, 429) } },
  }, async (request) => listMyFactors(app.ctx, sessionOf(request)));

  app.post('/v1/auth/factors/:id/confirm', {
    config: { sessionOnly: true, stepUp: true },
    schema: {
      tags, summary: 'Confirm a factor a password reset suspended: it signs in again (needs a recent sign-in)',
      params: IdParams,
      response: { 200: Factor, ...errorResponses(401, 403, 404, 409, 429) },
    },
  }, async (request) => confirmMyFactor(app.ctx, sessionOf(request), request.params.id, requestMeta(request)));

  app.delete('/v1/auth/factors/:id', {
    config: { sessionOnly: true, stepUp: true },
    schema: {
      tags, summary: 'Remove a factor: a passkey, or a TOTP a password reset suspended (needs a recent sign-in)',
      description: 'A TOTP in use is turned off at POST /v1/auth/2fa/disable with a code (409 here).',
      params: IdParams,
      response: { 204: Type.Null(), ...errorResponses(401, 403, 404, 409, 429) },
    },
  }, async (request, reply) => {
    await removeMyFactor(app.ctx, sessionOf(request), request.params.id, requestMeta(request));
    return reply.code(204).send(null);
  });
};
