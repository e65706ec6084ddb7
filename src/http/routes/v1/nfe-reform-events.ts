import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listReformEvents, reformEventXml, requestReformEvent } from '../../../documents/nfe/services/reform-event-nfe.js';
import { cancelReformEvent } from '../../../documents/nfe/services/reform-event-cancel.js';
import { errorResponses } from '../../../kernel/errors.js';
import { IdParams } from '../../schemas/common.js';
import { ReformEventBody, ReformEventParams, ReformEventSchema } from '../../schemas/nfe-reform-events.js';
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
          'Sends an NT 2025.002-RTC event of the issuer about its own NF-e: `delivery_forecast_update` (112150) with `delivery_date`; ' +
          '`full_payment` (112110); `import_not_exempted` (112120, an import NF-e), `supplier_transport_loss` (112130, an outbound NF-e) ' +
          'and `prepaid_not_supplied` (112140, a debit note of type 06) with `items`. A field the layout refuses or the type does not ' +
          'take, an item the note does not have, or a type the NT does not foresee for this note is 422 naming the field; a note that ' +
          'is not authorized, or a 21st event of the type, 409. Answers 202 with the event (status pending); it is sent in the ' +
          'background and listed at GET /v1/nfe/:id/reform-events.',
        params: IdParams,
        body: ReformEventBody,
        response: { 202: ReformEventSchema, ...errorResponses(400, 401, 403, 404, 409, 415, 422, 429) },
      },
    },
    async (request, reply) => reply.code(202).send(await requestReformEvent(ctx, request.auth.accountId, request.params.id, request.body)),
  );

  app.post(
    '/v1/nfe/:id/reform-events/:eventId/cancel',
    {
      config: { scope: 'nfe:write' },
      schema: {
        tags,
        summary: 'Cancel a registered tax-reform event',
        description:
          'Sends NT 2025.002-RTC event 110001 "Cancelamento de Evento" for a registered reform event of the NF-e (112110-112150), with ' +
          "that event's type, protocol, sequence, author and cOrgaoAutor. An event that is not one of the note's reform events is 404; " +
          'one not registered, one already cancelled (or being cancelled), or one whose sequence another cancellation of the note already ' +
          'carries (the same Id), 409. Answers 202 with the cancellation (type event_cancellation, status pending); it is sent in the ' +
          'background, listed at GET /v1/nfe/:id/reform-events, and once registered the cancelled event shows it in cancelled_by.',
        params: ReformEventParams,
        response: { 202: ReformEventSchema, ...errorResponses(401, 403, 404, 409, 429) },
      },
    },
    async (request, reply) => reply.code(202).send(await cancelReformEvent(ctx, request.auth.accountId, request.params.id, request.params.eventId)),
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
