import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { MANIFESTATIONS, requestManifestation } from '../../../documents/nfe/services/manifest-received.js';
import { findReceived, listReceivedPage, receivedXml } from '../../../documents/nfe/services/find-received.js';
import { presentReceived } from '../../../documents/nfe/services/present-received.js';
import { requestReceivedSync } from '../../../documents/nfe/services/sync-received.js';
import { errorResponses } from '../../../kernel/errors.js';
import { IdParams, ListOf } from '../../schemas/common.js';
import { ManifestationBody, ReceivedNfeSchema } from '../../schemas/nfe.js';
import { sendDocument } from '../../document-reply.js';

const tags = ['nfe'];

/** NF-e other companies addressed to the account's issuers, and the recipient's manifestation. */
export const nfeReceivedRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;
  const present = (row: Parameters<typeof presentReceived>[0]) => presentReceived(row, ctx.config.publicBaseUrl);

  app.get(
    '/v1/nfe/received',
    {
      config: { scope: 'nfe:read' },
      schema: {
        tags,
        summary: 'List NF-e received from other companies, newest first',
        description:
          'Documents the national environment distributes to each issuer (NFeDistribuicaoDFe), downloaded hourly by NSU within ' +
          'its one-hour rule: the summary first, the full XML after a `ciencia` or `confirmacao` manifestation. Webhook `nfe.received`.',
        querystring: Type.Object({
          issuer_id: Type.Optional(Type.String({ maxLength: 64 })),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
          starting_after: Type.Optional(Type.String({ maxLength: 64 })),
        }, { additionalProperties: false }),
        response: { 200: ListOf(ReceivedNfeSchema, 'NfeReceivedList'), ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request) => {
      const p = await listReceivedPage(ctx, request.auth.accountId, request.query);
      return { data: p.data.map(present), has_more: p.has_more };
    },
  );

  app.post(
    '/v1/nfe/received/sync',
    {
      config: { scope: 'nfe:write' },
      schema: {
        tags,
        summary: "Download an issuer's received NF-e now",
        description: 'Queues the download at once, or at the moment the one-hour rule of the national environment allows it (answered as `next_at`).',
        body: Type.Object({ issuer_id: Type.String({ maxLength: 64 }) }, { additionalProperties: false }),
        response: { 202: Type.Object({ next_at: Type.String({ format: 'date-time' }) }), ...errorResponses(400, 401, 403, 415, 422, 429) },
      },
    },
    async (request, reply) => reply.code(202).send(await requestReceivedSync(ctx, request.auth.accountId, request.body.issuer_id)),
  );

  app.get(
    '/v1/nfe/received/:id',
    {
      config: { scope: 'nfe:read' },
      schema: { tags, summary: 'Retrieve a received NF-e', params: IdParams, response: { 200: ReceivedNfeSchema, ...errorResponses(401, 403, 404, 429) } },
    },
    async (request) => present(await findReceived(ctx, request.auth.accountId, request.params.id)),
  );

  app.get(
    '/v1/nfe/received/:id/xml',
    {
      config: { scope: 'nfe:read' },
      schema: {
        tags,
        summary: 'The full XML of a received NF-e',
        description: "The issuer's nfeProc, once the national environment distributes it (after `ciencia` or `confirmacao`); 409 before.",
        params: IdParams,
        response: { 200: Type.String({ description: 'application/xml' }), ...errorResponses(401, 403, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      const { xml, fileName } = await receivedXml(ctx, request.auth.accountId, request.params.id);
      return sendDocument(request, reply, { type: 'application/xml; charset=utf-8', fileName, body: xml });
    },
  );

  app.post(
    '/v1/nfe/:id/manifestation',
    {
      config: { scope: 'nfe:write' },
      schema: {
        tags,
        summary: 'Manifest on a received NF-e (recipient)',
        description:
          `On an NF-e received by one of the account's issuers (its id from GET /v1/nfe/received): ${Object.entries(MANIFESTATIONS).map(([k, v]) => `${k} (${v})`).join(', ')}. ` +
          "Signed with the recipient's certificate and sent to the national environment; each conclusive manifestation at most twice, " +
          'within 180 days. Answers 202 with the manifestation pending; the record shows it registered or refused.',
        params: IdParams,
        body: ManifestationBody,
        response: { 202: ReceivedNfeSchema, ...errorResponses(400, 401, 403, 404, 409, 415, 422, 429) },
      },
    },
    async (request, reply) => reply.code(202).send(present(await requestManifestation(ctx, request.auth.accountId, request.params.id, request.body))),
  );
};
