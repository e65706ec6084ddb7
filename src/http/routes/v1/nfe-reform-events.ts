import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { listReformEvents, reformEventXml, requestReformEvent } from '../../../documents/nfe/services/reform-event-nfe.js';
import { errorResponses } from '../../../kernel/errors.js';
import { IdParams } from '../../schemas/common.js';
import { ReformEventBody, ReformEventParams, ReformEventSchema } from '../../schemas/nfe-reform-events.js';
import { sendDocument } from '../../document-reply.js';

const tags = ['nfe'];

/** NT 2025.002-RTC events the issuer sends about its own NF-e (docs/fiscal/reform-events.md). */
export const nfeReformEventRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;

  app.post(
    '/v1/nfe/:id/reform-events',
    {
      config: { scope: 'nfe:write' },
      schema: {
        tags,
        summary: 'Send a tax-reform event about an authorized NF-e',
        description:
          'Sends an NT 2025.002-RTC event of the issuer: `delivery_forecast_update` (112150, Atualização da Data de Previsão de ' +
          'Entrega) with `delivery_date`. A date that does not exist is 422 naming `delivery_date`; a note that is not authorized, ' +
          'or a 21st event of the type, 409. Answers 202 with the event (status pending); it is sent in the background and ' +
          'listed at GET /v1/nfe/:id/reform-events.',
        params: IdParams,
        body: ReformEventBody,
        response: { 202: ReformEventSchema, ...errorResponses(400, 401, 403, 404, 409, 415, 422, 429) },
      },
    },
    async (request, reply) => reply.code(202).send(await requestReformEvent(ctx, request.auth.accountId, request.params.id, request.body)),
  );

  app.get(
    '/v1/nfe/:id/reform-events',
    {
      config: { scope: 'nfe:read' },
      schema: {
        tags,
        summary: "The NF-e's tax-reform events",
        params: IdParams,
        response: { 200: Type.Object({ data: Type.Array(ReformEventSchema), has_more: Type.Boolean() }), ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => ({ data: await listReformEvents(ctx, request.auth.accountId, request.params.id), has_more: false }),
  );

  app.get(
    '/v1/nfe/:id/reform-events/:eventId/xml',
    {
      config: { scope: 'nfe:read' },
      schema: {
        tags,
        summary: 'The procEventoNFe of a registered tax-reform event',
        params: ReformEventParams,
        response: { 200: Type.String({ description: 'application/xml' }), ...errorResponses(401, 403, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      const { xml, fileName } = await reformEventXml(ctx, request.auth.accountId, request.params.id, request.params.eventId);
      return sendDocument(request, reply, { type: 'application/xml; charset=utf-8', fileName, body: xml });
    },
  );
};
