import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  createWebhook,
  deleteWebhook,
  deliveriesWithAttempts,
  listWebhookPage,
  replayDelivery,
  requireWebhook,
  sendTestEvent,
  updateWebhook,
} from '../../../platform/webhooks/manage-webhooks.js';
import { presentDelivery, presentWebhook } from '../../../platform/webhooks/webhook-view.js';
import { errorResponses } from '../../../kernel/errors.js';
import { IdParams, ListOf, ListQuery } from '../../schemas/common.js';
import { page } from '../../../kernel/page.js';
import { CreateWebhookBody, UpdateWebhookBody, DeliveryParams, WebhookDelivery, WebhookEndpoint, WebhookEndpointWithSecret } from '../../schemas/webhook.js';

const DELIVERY_POLICY =
  'Each event is POSTed as JSON `{"id": "evt_...", "type": "nfce.authorized", "created_at": "...", "data": {...the record...}}` ' +
  'signed per Standard Webhooks (headers `webhook-id` (the event id), `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>` ' +
  'of `id.timestamp.body` with the secret). Any 2xx within 10 s is success; redirects are not followed. Delivery is at least once, ' +
  'in order per record where possible. Failures are retried 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h after the previous ' +
  'attempt, then every 8 h (each +/-10% jitter) until 72 h after the event (16 or 17 attempts), then the delivery is `failed`. An endpoint without a 2xx ' +
  'for 3 days is disabled and the account is notified (in-app and e-mail). Production URLs must be https and may not resolve to ' +
  'private, loopback or link-local addresses (checked again at every delivery).';

export const webhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['webhooks'];
  const { ctx } = app;

  app.get(
    '/v1/webhooks',
    {
      config: { scope: 'webhooks:read' },
      schema: { tags, summary: 'List webhook endpoints', querystring: ListQuery, response: { 200: ListOf(WebhookEndpoint, 'WebhookEndpointList'), ...errorResponses(401, 403, 422, 429) } },
    },
    async (request) => {
      const q = request.query;
      const p = await listWebhookPage(ctx, request.auth.accountId, q.limit ?? 20, q.starting_after);
      return { data: p.data.map(presentWebhook), has_more: p.has_more };
    },
  );

  app.post(
    '/v1/webhooks',
    {
      config: { scope: 'webhooks:write' },
      schema: {
        tags,
        summary: 'Create a webhook endpoint',
        description: `The signing secret is returned once. ${DELIVERY_POLICY}`,
        body: CreateWebhookBody,
        response: { 201: WebhookEndpointWithSecret, ...errorResponses(400, 401, 403, 409, 415, 422, 429) },
      },
    },
    async (request, reply) => {
      const { row, secret } = await createWebhook(ctx, request.auth.accountId, request.body);
      return reply.code(201).send({ ...presentWebhook(row), secret });
    },
  );

  app.get(
    '/v1/webhooks/:id',
    {
      config: { scope: 'webhooks:read' },
      schema: { tags, summary: 'A webhook endpoint', params: IdParams, response: { 200: WebhookEndpoint, ...errorResponses(401, 403, 404, 429) } },
    },
    async (request) => presentWebhook(await requireWebhook(ctx, request.auth.accountId, request.params.id)),
  );

  app.patch(
    '/v1/webhooks/:id',
    {
      config: { scope: 'webhooks:write' },
      schema: {
        tags,
        summary: 'Change a webhook endpoint',
        description:
          'Any of url (checked as on creation), event_types, description and enabled. `enabled: true` turns a disabled endpoint ' +
          '(after 3 days of failures, or by hand) on again, its failure run cleared; the signing secret stays the same.',
        params: IdParams,
        body: UpdateWebhookBody,
        response: { 200: WebhookEndpoint, ...errorResponses(400, 401, 403, 404, 415, 422, 429) },
      },
    },
    async (request) => presentWebhook(await updateWebhook(ctx, request.auth.accountId, request.params.id, request.body)),
  );

  app.delete(
    '/v1/webhooks/:id',
    {
      config: { scope: 'webhooks:write' },
      schema: {
        tags,
        summary: 'Delete a webhook endpoint',
        description: 'No further deliveries are made; pending retries are canceled. The delivery log is kept.',
        params: IdParams,
        response: { 200: Type.Object({ id: Type.String(), object: Type.Literal('webhook_endpoint'), deleted: Type.Literal(true) }), ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => {
      const { id } = request.params;
      await deleteWebhook(ctx, request.auth.accountId, id);
      return { id, object: 'webhook_endpoint' as const, deleted: true as const };
    },
  );

  app.get(
    '/v1/webhooks/:id/deliveries',
    {
      config: { scope: 'webhooks:read' },
      schema: {
        tags,
        summary: 'Delivery log of an endpoint, newest first, with every attempt',
        description: DELIVERY_POLICY,
        params: IdParams,
        querystring: ListQuery,
        response: { 200: ListOf(WebhookDelivery, 'WebhookDeliveryList'), ...errorResponses(401, 403, 404, 422, 429) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const q = request.query;
      const limit = q.limit ?? 20;
      const p = page(await deliveriesWithAttempts(ctx, request.auth.accountId, id, limit + 1, q.starting_after), limit);
      return { data: p.data.map((x) => presentDelivery(x.delivery, x.attempts)), has_more: p.has_more };
    },
  );

  app.post(
    '/v1/webhooks/:id/deliveries/:dlvId/replay',
    {
      config: { scope: 'webhooks:write' },
      schema: {
        tags,
        summary: 'Send a delivery again',
        description: 'Queues one new attempt with the same event (same `webhook-id` and body, fresh signature); see the delivery log for its outcome.',
        params: DeliveryParams,
        response: { 202: WebhookDelivery, ...errorResponses(400, 401, 403, 404, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      const { id, dlvId } = request.params;
      return reply.code(202).send(presentDelivery(await replayDelivery(ctx, request.auth.accountId, id, dlvId), []));
    },
  );

  app.post(
    '/v1/webhooks/:id/test',
    {
      config: { scope: 'webhooks:write' },
      schema: {
        tags,
        summary: 'Send a webhook.test event to this endpoint',
        description: 'One attempt, no retries; the delivery and its attempt appear in the delivery log.',
        params: IdParams,
        response: { 202: WebhookDelivery, ...errorResponses(400, 401, 403, 404, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      return reply.code(202).send(presentDelivery(await sendTestEvent(ctx, request.auth.accountId, id), []));
    },
  );
};
