import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { deliveryEventXml, listDeliveryEvents, requestDeliveryEvent } from '../../../documents/nfe/services/delivery-event-nfe.js';
import { errorResponses } from '../../../kernel/errors.js';
import { IdParams } from '../../schemas/common.js';
import { DeliveryEventBody, DeliveryEventParams, DeliveryEventSchema } from '../../schemas/nfe-delivery-events.js';
import { sendDocument } from '../../document-reply.js';

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

  app.get(
    '/v1/nfe/:id/delivery-events',
    {
      config: { scope: 'nfe:read' },
      schema: {
        tags,
        summary: "The NF-e's delivery events",
        params: IdParams,
        response: { 200: Type.Object({ data: Type.Array(DeliveryEventSchema), has_more: Type.Boolean() }), ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => ({ data: await listDeliveryEvents(ctx, request.auth.accountId, request.params.id), has_more: false }),
  );

  app.get(
    '/v1/nfe/:id/delivery-events/:eventId/xml',
    {
      config: { scope: 'nfe:read' },
      schema: {
        tags,
        summary: 'The procEventoNFe of a registered delivery event',
        params: DeliveryEventParams,
        response: { 200: Type.String({ description: 'application/xml' }), ...errorResponses(401, 403, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      const { xml, fileName } = await deliveryEventXml(ctx, request.auth.accountId, request.params.id, request.params.eventId);
      return sendDocument(request, reply, { type: 'application/xml; charset=utf-8', fileName, body: xml });
    },
  );
};
