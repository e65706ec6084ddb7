import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { getAccountProfile, updateAccountProfile } from '../../../platform/issuers/account-profile.js';
import { errorResponses } from '../../../kernel/errors.js';
import { closeAccount } from '../../../platform/people/close-account.js';
import { requestMeta, sessionOf } from '../../request-meta.js';
import { Account, PatchAccountBody } from '../../schemas/account.js';
import { TechnicalResponsible, TechnicalResponsibleBody, TechnicalResponsibleOrNone } from '../../schemas/technical-responsible.js';
import { getTechnicalResponsible, removeTechnicalResponsible, setTechnicalResponsible } from '../../../platform/issuers/technical-responsible.js';
import { secretBoxFor } from '../../../infra/security/secret-box-registry.js';
import { AccountClosure, ForceCancelBody } from '../../schemas/team.js';

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
        summary: 'Rename the account, choose its tax regime, set its notification e-mail or require single sign-on',
        body: PatchAccountBody,
        response: { 200: Account, ...errorResponses(400, 401, 403, 409, 415, 422, 429) },
      },
    },
    async (request) =>
      updateAccountProfile(app.ctx.db, request.auth.accountId, request.body, app.ctx.clock.now(), {
        ssoAvailable: Object.keys(app.ctx.config.sso.providers).length > 0,
      }),
  );

  // infRespTec (MOC ZD01-10): the software house, once for every issuer of the account.
  app.get(
    '/v1/account/technical-responsible',
    {
      config: { scope: 'account:read' },
      schema: { tags, summary: 'The technical responsible (infRespTec) of the account', response: { 200: TechnicalResponsibleOrNone, ...errorResponses(401, 403, 429) } },
    },
    async (request) => getTechnicalResponsible(app.ctx, request.auth.accountId, null),
  );

  app.put(
    '/v1/account/technical-responsible',
    {
      config: { scope: 'account:write' },
      schema: {
        tags,
        summary: 'Set the technical responsible (infRespTec) every NF-e and NFC-e of the account carries',
        description:
          'The software house: CNPJ, contact, e-mail, phone and, where the state issues one, the CSRT (id and secret; the secret is stored encrypted and never returned). ' +
          'An issuer may have its own (PUT /v1/issuers/{id}/technical-responsible). AM, MS, PE, PR, SC and TO require it (MOC ZD01-10).',
        body: TechnicalResponsibleBody,
        response: { 200: TechnicalResponsible, ...errorResponses(400, 401, 403, 415, 422, 429) },
      },
    },
    async (request) => setTechnicalResponsible({ ...app.ctx, secrets: secretBoxFor(app.ctx.config) }, request.auth.accountId, null, request.body),
  );

  app.delete(
    '/v1/account/technical-responsible',
    {
      config: { scope: 'account:write' },
      schema: { tags, summary: 'Remove the account\'s technical responsible', response: { 204: Type.Null(), ...errorResponses(401, 403, 404, 429) } },
    },
    async (request, reply) => {
      await removeTechnicalResponsible(app.ctx, request.auth.accountId, null);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/v1/account/force-cancel',
    {
      // Owner only (checked on the role by the use case, so that a retry with the same
      // Idempotency-Key after signing in again reaches its replay), a person, a recent proof.
      config: { sessionOnly: true, stepUp: true },
      schema: {
        tags,
        summary: 'Close the account now (owner only, recent sign-in)',
        description:
          'Force-cancel: unlike a normal cancellation, which takes effect at the end of the billing period, the account closes at once. ' +
          'In one transaction every API key is revoked, every session ends (yours too), every webhook endpoint is disabled and pending invites are revoked. ' +
          'New documents are refused (403 `account_closed`). Documents are kept and stay readable for 5 years (SEFAZ requires the issuer to keep the XML): ' +
          'an owner can sign in again to read and export them. `confirm` must repeat the account id.',
        body: ForceCancelBody,
        response: { 200: AccountClosure, ...errorResponses(400, 401, 403, 409, 415, 422, 429) },
      },
    },
    async (request) => {
      const closed = await closeAccount(app.ctx, sessionOf(request), request.auth.accountId, request.body, requestMeta(request));
      // This process forgets the revoked keys now (401 at once); other processes within the key cache's 5 s (auth.ts).
      app.forgetApiKeys();
      return closed;
    },
  );
};
