import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { presentNotification } from '../../../platform/notifications/notification-view.js';
import { streamNotifications } from '../../../platform/notifications/notification-stream.js';
import { listNotificationPage, readNotification } from '../../../platform/notifications/manage-notifications.js';
import { errorResponses } from '../../../kernel/errors.js';
import { IdParams, ListOf, ListQuery } from '../../schemas/common.js';
import { NotificationSchema } from '../../schemas/notification.js';

export const notificationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['notifications'];
  const { ctx } = app;

  app.get(
    '/v1/notifications',
    {
      config: { scope: 'notifications:read' },
      schema: {
        tags,
        summary: 'List in-app notifications, unread first, then newest first',
        querystring: ListQuery,
        response: { 200: ListOf(NotificationSchema, 'NotificationList'), ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request) => {
      const q = request.query;
      const p = await listNotificationPage(ctx, request.auth.accountId, q.limit ?? 20, q.starting_after);
      return { data: p.data.map(presentNotification), has_more: p.has_more };
    },
  );

  app.post(
    '/v1/notifications/:id/read',
    {
      config: { scope: 'notifications:write' },
      schema: {
        tags,
        summary: 'Mark a notification read',
        description: 'Reading twice keeps the first read_at.',
        params: IdParams,
        response: { 200: NotificationSchema, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => {
      const { id } = request.params;
      return presentNotification(await readNotification(ctx, request.auth.accountId, id));
    },
  );

  app.get(
    '/v1/notifications/stream',
    {
      config: { scope: 'notifications:read' },
      schema: {
        tags,
        summary: 'Stream notifications as server-sent events',
        description:
          'A `text/event-stream` that stays open: each notification is an event `notification` whose `id` is its `seq` and whose ' +
          '`data` is the Notification JSON. Only notifications created after the connection are sent, unless the client sends ' +
          '`Last-Event-ID` (browsers do on reconnect): then every notification after that id is replayed first. A comment line ' +
          '(`: heartbeat`) every 15 seconds keeps proxies from closing the connection. Works across API processes.',
        headers: Type.Object({ 'last-event-id': Type.Optional(Type.String({ maxLength: 32, description: 'Resume after this event id' })) }),
        response: {
          200: { description: 'The event stream', content: { 'text/event-stream': { schema: Type.String() } } },
          ...errorResponses(401, 403, 429),
        },
      },
    },
    async (request, reply) => {
      const last = request.headers['last-event-id'];
      reply.hijack();
      await streamNotifications(ctx, request.raw, reply.raw, {
        accountId: request.auth.accountId,
        lastEventId: Array.isArray(last) ? last[0] : last,
        requestId: request.id,
        headers: reply.getHeaders(),
      });
    },
  );
};
