import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { deliveryEventXml, listDeliveryEvents, requestDeliveryEvent } from '../../../documents/nfe/services/delivery-event-nfe.js';
import { errorResponses } from '../../../kernel/errors.js';
import { IdParams } from '../../schemas/common.js';
import { DeliveryEventBody, DeliveryEventSchema } from '../../schemas/nfe-delivery-events.js';
import { registerNfeEventReads } from './nfe-event-reads.js';

const tags = ['nfe'];

/** The issuer's delivery events on its NF-e (docs/fiscal/delivery-events.md, docs/guides/nfe.md). */
export const nfeDeliveryEventRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;

  app.post(
    '/v1/nfe/:id/delivery-events',
    {
      config: { scope: 'nfe:write' },
      schema: {
        tags,
        summary: 'Register a proof of delivery, a failed delivery, or cancel one',
        description:
          'proof (110130, NT 2021.001, sent to the Ambiente Nacional) with delivered_at, receiver_document, receiver_name, image_base64 and ' +
          'optional latitude/longitude; failure (110192, NT 2023.005, sent to SVRS) with attempted_at, reason (other needs justification), ' +
          'image_base64, optional attempt and coordinates; proof_cancel / failure_cancel (110131 / 110193) with the protocol of the event. ' +
          'A field the event refuses is 422 naming it; a note that is not authorized, or a second proof (failure) while one stands, 409. ' +
          'Answers 202 with the event (pending); webhooks nfe.delivery_event_registered / nfe.delivery_event_rejected follow.',
        params: IdParams,
        body: DeliveryEventBody,
        response: { 202: DeliveryEventSchema, ...errorResponses(400, 401, 402, 403, 404, 409, 413, 415, 422, 429) },
      },
    },
    async (request, reply) => reply.code(202).send(await requestDeliveryEvent(ctx, request.auth.accountId, request.params.id, request.body)),
  );

  registerNfeEventReads(app, {
    segment: 'delivery-events',
    schema: DeliveryEventSchema,
    listSummary: "The NF-e's delivery events",
    xmlSummary: 'The procEventoNFe of a registered delivery event',
    list: listDeliveryEvents,
    xml: deliveryEventXml,
  });
};
