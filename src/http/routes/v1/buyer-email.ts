import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../../kernel/errors.js';
import { getBuyerMailSettings, setBuyerMailSettings } from '../../../platform/mail/buyer-mail-settings.js';
import { listBuyerMailPage } from '../../../platform/mail/buyer-mail-log.js';
import { clearBounce, listBouncePage } from '../../../platform/mail/mail-bounces.js';
import { IdParams, ListOf } from '../../schemas/common.js';
import {
  BounceListQuery,
  BounceParams,
  BuyerEmail,
  BuyerEmailListQuery,
  BuyerEmailSettings,
  BuyerEmailSettingsBody,
  MailBounce,
} from '../../schemas/buyer-email.js';

/** The DANFE and XML to the buyer by e-mail, its settings, log and bounce list (docs/guides/email.md). */
export const buyerEmailRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['buyer e-mail'];
  const read = { scope: 'issuers:read' };
  const write = { scope: 'issuers:write' };

  app.get(
    '/v1/issuers/:id/buyer-email',
    {
      config: read,
      schema: {
        tags,
        summary: "The issuer's buyer e-mail settings",
        description: 'Whether each authorized note of the issuer is e-mailed to its buyer (DANFE + XML) and its cancellation announced, the sender\'s display name and the accountant copied in Bcc. Off until set.',
        params: IdParams,
        response: { 200: BuyerEmailSettings, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => getBuyerMailSettings(app.ctx, request.auth.accountId, request.params.id),
  );

  app.put(
    '/v1/issuers/:id/buyer-email',
    {
      config: write,
      schema: {
        tags,
        summary: "Turn the issuer's buyer e-mail on or off, and set its sender name and accountant copy",
        description:
          'From the next authorization on, the buyer (the sale\'s `email.to`, else `destinatario.email`, `consumer.email` or `tomador.email`) gets an e-mail ' +
          'in Portuguese with the DANFE (PDF) and the authorized XML attached, and a notice with the cancellation event\'s XML if the note is canceled. ' +
          'A sale\'s `email.send` overrides this setting for its note. Sent by a background job: GET /v1/buyer-emails shows each one.',
        params: IdParams,
        body: BuyerEmailSettingsBody,
        response: { 200: BuyerEmailSettings, ...errorResponses(400, 401, 403, 404, 415, 422, 429) },
      },
    },
    async (request) => setBuyerMailSettings(app.ctx, request.auth.accountId, request.params.id, request.body),
  );

  app.get(
    '/v1/buyer-emails',
    {
      config: read,
      schema: {
        tags,
        summary: 'The e-mails sent to buyers, newest first',
        description: 'One per note and kind (authorized, canceled), with its state: a retried job never sends a second one. `note_id` keeps one note\'s.',
        querystring: BuyerEmailListQuery,
        response: { 200: ListOf(BuyerEmail, 'BuyerEmailList'), ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request) => listBuyerMailPage(app.ctx, request.auth.accountId, { ...request.query, limit: request.query.limit ?? 20 }),
  );

  app.get(
    '/v1/email-bounces',
    {
      config: read,
      schema: {
        tags,
        summary: 'The bounce list: addresses no buyer e-mail goes to',
        description: 'An address the SMTP server refused with a permanent (5xx) reply when a buyer e-mail was handed over. Later notes to it are recorded as skipped (`reason: address_bounced`) until it is removed.',
        querystring: BounceListQuery,
        response: { 200: ListOf(MailBounce, 'MailBounceList'), ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request) => listBouncePage(app.ctx, request.auth.accountId, request.query.limit ?? 20, request.query.starting_after),
  );

  app.delete(
    '/v1/email-bounces/:address',
    {
      config: write,
      schema: {
        tags,
        summary: 'Take an address off the bounce list',
        description: 'The next note\'s e-mail goes to it again (a mail already skipped is not sent afterwards).',
        params: BounceParams,
        response: { 204: Type.Null({ description: 'Removed' }), ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      await clearBounce(app.ctx, request.auth.accountId, request.params.address);
      return reply.code(204).send(null);
    },
  );
};
