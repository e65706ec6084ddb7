import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type TSchema } from 'typebox';
import { errorResponses } from '../../../kernel/errors.js';
import { IdParams } from '../../schemas/common.js';
import { sendDocument } from '../../document-reply.js';
import type { AppContext } from '../../../app-context.js';

/** One kind of event the issuer registers on its NF-e (delivery, tax reform): how it is listed and read. */
export interface NfeEventReads<E> {
  /** The path segment after /v1/nfe/:id/ (e.g. `delivery-events`). */
  segment: string;
  /** The event as the API answers it. */
  schema: TSchema;
  listSummary: string;
  xmlSummary: string;
  list: (ctx: AppContext, accountId: string, noteId: string) => Promise<E[]>;
  xml: (ctx: AppContext, accountId: string, noteId: string, eventId: string) => Promise<{ xml: string; fileName: string }>;
}

/** The note and one of its events. */
export const NfeEventParams = Type.Object({ id: Type.String({ maxLength: 64 }), eventId: Type.String({ maxLength: 64 }) });

/** GET /v1/nfe/:id/<segment> and GET /v1/nfe/:id/<segment>/:eventId/xml, written once for every kind. */
export function registerNfeEventReads<E>(app: FastifyInstance, r: NfeEventReads<E>): void {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { ctx } = app;
  typed.get(
    `/v1/nfe/:id/${r.segment}`,
    {
      config: { scope: 'nfe:read' },
      schema: {
        tags: ['nfe'],
        summary: r.listSummary,
        params: IdParams,
        response: { 200: Type.Object({ data: Type.Array(r.schema), has_more: Type.Boolean() }), ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => ({ data: await r.list(ctx, request.auth.accountId, request.params.id), has_more: false }),
  );
  typed.get(
    `/v1/nfe/:id/${r.segment}/:eventId/xml`,
    {
      config: { scope: 'nfe:read' },
      schema: {
        tags: ['nfe'],
        summary: r.xmlSummary,
        params: NfeEventParams,
        response: { 200: Type.String({ description: 'application/xml' }), ...errorResponses(401, 403, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      const { xml, fileName } = await r.xml(ctx, request.auth.accountId, request.params.id, request.params.eventId);
      return sendDocument(request, reply, { type: 'application/xml; charset=utf-8', fileName, body: xml });
    },
  );
}
