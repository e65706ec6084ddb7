import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { getAccountProfile, updateAccountProfile } from '../../../platform/issuers/account-profile.js';
import { errorResponses } from '../../../kernel/errors.js';
import { Account, PatchAccountBody } from '../../schemas/account.js';

export const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['account'];

  app.get(
    '/v1/account',
    {
      config: { scope: 'account:read', allowUnverified: true },
      schema: { tags, summary: 'The account of the API key', response: { 200: Account, ...errorResponses(401, 403, 429) } },
    },
    async (request) => getAccountProfile(app.ctx.db, request.auth.accountId),
  );

  app.patch(
    '/v1/account',
    {
      config: { scope: 'account:write' },
      schema: {
        tags,
        summary: 'Rename the account, choose its tax regime or set its notification e-mail',
        body: PatchAccountBody,
        response: { 200: Account, ...errorResponses(400, 401, 403, 409, 415, 422, 429) },
      },
    },
    async (request) =>
      updateAccountProfile(app.ctx.db, request.auth.accountId, request.body, app.ctx.clock.now()),
  );
};
