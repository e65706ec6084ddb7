import type { FastifyPluginAsync } from 'fastify';
import type { Static } from 'typebox';
import { listAuditEntries, type AuditEntry } from '../../../platform/storage/repositories/audit-repository.js';
import { errorResponses } from '../../../kernel/errors.js';
import { AuditEntrySchema, AuditQuery } from '../../schemas/audit.js';
import { ListOf } from '../../schemas/common.js';
import { page } from '../../../kernel/page.js';

const present = (e: AuditEntry) => ({
  id: e.id,
  object: 'audit_entry' as const,
  actor: e.actor,
  action: e.action,
  target: e.target,
  method: e.method,
  route: e.route,
  status_code: e.status_code,
  ip: e.ip,
  request_id: e.request_id,
  created_at: e.created_at.toISOString(),
});

export const auditLogRoutes: FastifyPluginAsync = async (app) => {
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
      const q = request.query as Static<typeof AuditQuery>;
      const limit = q.limit ?? 20;
      await app.auditLog.flush(); // this process's own recent calls are visible at once
      const rows = await listAuditEntries(
        app.ctx.db,
        request.auth.accountId,
        { actor: q.actor, action: q.action, target: q.target, from: q.from ? new Date(q.from) : undefined, to: q.to ? new Date(q.to) : undefined },
        limit + 1,
        q.starting_after,
      );
      const p = page(rows, limit);
      return { data: p.data.map(present), has_more: p.has_more };
    },
  );
};
