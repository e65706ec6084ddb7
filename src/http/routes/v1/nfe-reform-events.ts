import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listReformEvents, reformEventXml, requestReformEvent } from '../../../documents/nfe/services/reform-event-nfe.js';
import { errorResponses } from '../../../kernel/errors.js';
import { IdParams } from '../../schemas/common.js';
import { ReformEventBody, ReformEventSchema } from '../../schemas/nfe-reform-events.js';
import { registerNfeEventReads } from './nfe-event-reads.js';

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

  registerNfeEventReads(app, {
    segment: 'reform-events',
    schema: ReformEventSchema,
    listSummary: "The NF-e's tax-reform events",
    xmlSummary: 'The procEventoNFe of a registered tax-reform event',
    list: listReformEvents,
    xml: reformEventXml,
  });
};
