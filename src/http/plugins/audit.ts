import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { auditAction, auditTarget } from '../../platform/audit/audit-action.js';
import { AuditWriter } from '../../platform/audit/audit-writer.js';
import { newId } from '../../kernel/ids.js';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
// The created record's id, read from the start of the answer only: no body is stored, and no field
// other than the id is ever read, so secrets in answers (API keys, whsec_) cannot reach the log.
const TOP_LEVEL_ID = /^\{\s*"id"\s*:\s*"([A-Za-z0-9_.:-]{1,64})"/;

declare module 'fastify' {
  interface FastifyInstance {
    auditLog: AuditWriter;
  }
  interface FastifyRequest {
    auditTargetId: string | null;
  }
}

// How long a lone audit entry waits for others to share its INSERT (entries already live in memory
// until written; GET /v1/audit-log flushes first, so a caller always sees its own calls).
const AUDIT_LINGER_MS = 50;

/**
 * audit log: every authenticated POST/PUT/PATCH/DELETE, with actor, action (from method and
 * route pattern), target, IP, request id and status code. Written after the answer is sent, batched.
 */
export const auditPlugin = fp(
  async (app: FastifyInstance) => {
    const writer = new AuditWriter(app.ctx.db, (err) => app.log.error({ err }, 'audit log write failed; will retry'), AUDIT_LINGER_MS);
    app.decorate('auditLog', writer);
    app.decorateRequest('auditTargetId', null);

    app.addHook('onSend', async (request: FastifyRequest, _reply: FastifyReply, payload: unknown) => {
      if (MUTATING.has(request.method) && typeof payload === 'string') request.auditTargetId = TOP_LEVEL_ID.exec(payload)?.[1] ?? null;
      return payload;
    });

    app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
      // Unauthenticated calls belong to no account; they are not audit events of one.
      if (!MUTATING.has(request.method) || !request.auth || !request.routeOptions.url) return;
      writer.push({
        id: newId('aud'),
        account_id: request.auth.accountId,
        actor: request.auth.session?.userId ?? request.auth.applicationId ?? 'sandbox',
        action: auditAction(request.method, request.routeOptions.url),
        target: auditTarget(request.params, request.auditTargetId),
        method: request.method,
        route: request.routeOptions.url,
        status_code: reply.statusCode,
        ip: request.ip ?? null,
        request_id: request.id,
        created_at: app.ctx.clock.now(),
      });
    });

    app.addHook('onClose', async () => writer.flush());
  },
  { name: 'audit', dependencies: ['auth'] },
);
