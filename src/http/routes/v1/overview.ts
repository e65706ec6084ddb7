import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../../kernel/errors.js';
import { accountOverview } from '../../../platform/overview/account-overview.js';
import { OverviewSchema } from '../../schemas/overview.js';

/**
 * The dashboard's home page in one call. Any member reads it (`account:read`); what each
 * section shows follows the caller's scopes, so a billing member gets usage and a viewer everything
 * but usage.
 */
export const overviewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;
  app.get(
    '/v1/overview',
    {
      config: { scope: 'account:read' },
      schema: {
        tags: ['account'],
        summary: "The account at a glance: today's and this month's documents, latency, rejections, contingency, certificates, usage",
        description:
          'Days and months are São Paulo\'s calendar (America/Sao_Paulo). Documents by type and status created today and this month; ' +
          'authorization latency (p50/p95, creation to authorization) over today\'s authorized notes; the 5 most frequent rejection causes ' +
          'this month; notes waiting in offline contingency with their deadlines (first 20); certificates expiring within 30 days; usage ' +
          'against the plan\'s quota. A section the caller\'s scopes do not read is null: documents, latency, rejections and contingency ' +
          'count only the document types the caller reads (`nfce:read`, `nfe:read`, `nfse:read`), certificates need `issuers:read`, usage ' +
          '`billing:read`.',
        response: { 200: OverviewSchema, ...errorResponses(401, 403, 429) },
      },
    },
    async (request) => accountOverview(ctx, request.auth.accountId, request.auth.scopes),
  );
};
