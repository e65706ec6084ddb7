import { page } from '../../kernel/page.js';
import type { Ports } from '../ports/ports.js';
import { listAuditEntries, type AuditEntry } from '../../infra/storage/repositories/audit-repository.js';
import type { AuditWriter } from './audit-writer.js';

/** GET /v1/audit-log's filters; dates as ISO 8601 text. */
export interface AuditLogQuery {
  limit?: number;
  starting_after?: string;
  actor?: string;
  action?: string;
  target?: string;
  from?: string;
  to?: string;
}

/** The writer holding this process's entries not yet stored (src/http/plugins/audit.ts). */
export type AuditLogDeps = Pick<Ports, 'db'> & { writer: Pick<AuditWriter, 'flush'> };

/** A page of the account's audit log, newest first. */
export async function listAuditPage(deps: AuditLogDeps, accountId: string, q: AuditLogQuery) {
  const limit = q.limit ?? 20;
  await deps.writer.flush(); // this process's own recent calls are visible at once
  const rows = await listAuditEntries(
    deps.db,
    accountId,
    { actor: q.actor, action: q.action, target: q.target, from: q.from ? new Date(q.from) : undefined, to: q.to ? new Date(q.to) : undefined },
    limit + 1,
    q.starting_after,
  );
  return page(rows, limit);
}

export const presentAuditEntry = (e: AuditEntry) => ({
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
