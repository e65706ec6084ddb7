import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listAuditPage, presentAuditEntry } from '../../../platform/audit/read-audit-log.js';
import { errorResponses } from '../../../kernel/errors.js';
import { AuditEntrySchema, AuditQuery } from '../../schemas/audit.js';
import { ListOf } from '../../schemas/common.js';

export const auditLogRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/audit-log',
    {
      config: { scope: 'audit:read' },
      schema: {
        tags: ['audit'],
        summary: 'The audit log: every mutating call, newest first',
        description:
          'Each POST, PUT, PATCH and DELETE made with a key of this account: who (actor), what (action, route, target), ' +
          'from where (ip), the request id and the status code. Entries are append-only; no body is recorded.',
        querystring: AuditQuery,
        response: { 200: ListOf(AuditEntrySchema, 'AuditEntryList'), ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request) => {
      const q = request.query;
      const p = await listAuditPage({ db: app.ctx.db, writer: app.auditLog }, request.auth.accountId, q);
      return { data: p.data.map(presentAuditEntry), has_more: p.has_more };
    },
  );
};
