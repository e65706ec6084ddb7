import type { Queryable } from '../db.js';

export interface AuditEntry {
  id: string;
  account_id: string;
  actor: string;
  action: string;
  target: string | null;
  method: string;
  route: string;
  status_code: number;
  ip: string | null;
  request_id: string;
  created_at: Date;
}

const FIELDS = ['id', 'account_id', 'actor', 'action', 'target', 'method', 'route', 'status_code', 'ip', 'request_id', 'created_at'] as const;
const TYPES: Record<(typeof FIELDS)[number], string> = {
  id: 'text', account_id: 'text', actor: 'text', action: 'text', target: 'text', method: 'text', route: 'text',
  status_code: 'int', ip: 'text', request_id: 'text', created_at: 'timestamptz',
};
// One statement text whatever the batch size (one column array per field), so it is prepared once.
const INSERT = `INSERT INTO audit_log (${FIELDS.join(', ')})
  SELECT * FROM unnest(${FIELDS.map((f, i) => `$${i + 1}::${TYPES[f]}[]`).join(', ')})`;

/** Append-only (the table refuses UPDATE and DELETE): one INSERT per batch. */
export async function appendAuditEntries(db: Queryable, entries: AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await db.query(INSERT, FIELDS.map((f) => entries.map((e) => e[f])));
}

export interface AuditFilter {
  actor?: string;
  action?: string;
  target?: string;
  from?: Date;
  to?: Date;
}

/** Newest first; `startingAfter` continues after that entry. */
export async function listAuditEntries(db: Queryable, accountId: string, f: AuditFilter, limit: number, startingAfter?: string): Promise<AuditEntry[]> {
  const r = await db.query<AuditEntry>(
    `SELECT ${FIELDS.join(', ')} FROM audit_log
      WHERE account_id = $1
        AND ($2::text IS NULL OR actor = $2)
        AND ($3::text IS NULL OR action = $3 OR action LIKE $3 || '.%')
        AND ($4::text IS NULL OR target = $4)
        AND ($5::timestamptz IS NULL OR created_at >= $5)
        AND ($6::timestamptz IS NULL OR created_at < $6)
        AND ($7::text IS NULL OR seq < (SELECT seq FROM audit_log WHERE account_id = $1 AND id = $7))
      ORDER BY seq DESC LIMIT $8`,
    [accountId, f.actor ?? null, f.action ?? null, f.target ?? null, f.from ?? null, f.to ?? null, startingAfter ?? null, limit],
  );
  return r.rows;
}
