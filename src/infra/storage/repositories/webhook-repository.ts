import type { Queryable } from '../db.js';

export interface WebhookEndpointRow {
  id: string;
  account_id: string;
  url: string;
  description: string;
  event_types: string[];
  enabled: boolean;
  disabled_reason: string | null;
  secret_blob: string;
  failing_since: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, account_id, url, description, event_types, enabled, disabled_reason, secret_blob, failing_since, created_at, updated_at';

export async function insertWebhookEndpoint(
  db: Queryable,
  e: { id: string; accountId: string; url: string; description: string; eventTypes: string[]; enabled: boolean; secretBlob: string; at: Date },
): Promise<WebhookEndpointRow> {
  const r = await db.query<WebhookEndpointRow>(
    `INSERT INTO webhook_endpoints (id, account_id, url, description, event_types, enabled, secret_blob, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING ${COLUMNS}`,
    [e.id, e.accountId, e.url, e.description, e.eventTypes, e.enabled, e.secretBlob, e.at],
  );
  return r.rows[0]!;
}

export async function getWebhookEndpoint(db: Queryable, accountId: string, id: string): Promise<WebhookEndpointRow | null> {
  const r = await db.query<WebhookEndpointRow>(
    `SELECT ${COLUMNS} FROM webhook_endpoints WHERE account_id = $1 AND id = $2 AND deleted_at IS NULL`,
    [accountId, id],
  );
  return r.rows[0] ?? null;
}

export async function listWebhookEndpoints(db: Queryable, accountId: string, limit: number, startingAfter?: string): Promise<WebhookEndpointRow[]> {
  const r = await db.query<WebhookEndpointRow>(
    `SELECT ${COLUMNS} FROM webhook_endpoints
      WHERE account_id = $1 AND deleted_at IS NULL AND ($3::text IS NULL OR id > $3)
      ORDER BY id LIMIT $2`,
    [accountId, limit, startingAfter ?? null],
  );
  return r.rows;
}

/** Enabled endpoints of the account that want this event type (or every type, `*`). */
export async function subscribedEndpoints(db: Queryable, accountId: string, type: string): Promise<WebhookEndpointRow[]> {
  const r = await db.query<WebhookEndpointRow>(
    `SELECT ${COLUMNS} FROM webhook_endpoints
      WHERE account_id = $1 AND deleted_at IS NULL AND enabled AND ($2 = ANY(event_types) OR '*' = ANY(event_types))`,
    [accountId, type],
  );
  return r.rows;
}

/**
 * Changes what the account may change (url, description, event types, enabled). Enabling clears why
 * it was disabled and the failure run, so the 3-day rule starts afresh; disabling by hand says so.
 * Null when the account has no such endpoint.
 */
export async function updateWebhookEndpoint(
  db: Queryable,
  accountId: string,
  id: string,
  f: { url?: string | undefined; description?: string | undefined; eventTypes?: string[] | undefined; enabled?: boolean | undefined },
  at: Date,
): Promise<WebhookEndpointRow | null> {
  const r = await db.query<WebhookEndpointRow>(
    `UPDATE webhook_endpoints SET
        url = COALESCE($3, url),
        description = COALESCE($4, description),
        event_types = COALESCE($5, event_types),
        enabled = COALESCE($6, enabled),
        disabled_reason = CASE WHEN $6 IS TRUE THEN NULL WHEN $6 IS FALSE AND enabled THEN 'disabled by the account' ELSE disabled_reason END,
        failing_since = CASE WHEN $6 IS TRUE AND NOT enabled THEN NULL ELSE failing_since END,
        updated_at = $7
      WHERE account_id = $1 AND id = $2 AND deleted_at IS NULL
      RETURNING ${COLUMNS}`,
    [accountId, id, f.url ?? null, f.description ?? null, f.eventTypes ?? null, f.enabled ?? null, at],
  );
  return r.rows[0] ?? null;
}

/** Soft delete: the delivery log keeps pointing at it; no further deliveries are made. */
export async function deleteWebhookEndpoint(db: Queryable, accountId: string, id: string, at: Date): Promise<boolean> {
  const r = await db.query(
    `UPDATE webhook_endpoints SET deleted_at = $3, enabled = false, updated_at = $3 WHERE account_id = $1 AND id = $2 AND deleted_at IS NULL`,
    [accountId, id, at],
  );
  return r.rowCount > 0;
}

export async function markEndpointHealthy(db: Queryable, id: string, at: Date): Promise<void> {
  await db.query(`UPDATE webhook_endpoints SET failing_since = NULL, updated_at = $2 WHERE id = $1 AND failing_since IS NOT NULL`, [id, at]);
}

/** Records a failure; returns since when the endpoint has been failing without a success. */
export async function markEndpointFailing(db: Queryable, id: string, at: Date): Promise<Date> {
  const r = await db.query<{ failing_since: Date }>(
    `UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, $2), updated_at = $2 WHERE id = $1 RETURNING failing_since`,
    [id, at],
  );
  return r.rows[0]?.failing_since ?? at;
}

/** Disables an enabled endpoint; true only for the caller that actually disabled it (notify once). */
export async function disableEndpoint(db: Queryable, id: string, reason: string, at: Date): Promise<boolean> {
  const r = await db.query(
    `UPDATE webhook_endpoints SET enabled = false, disabled_reason = $2, updated_at = $3 WHERE id = $1 AND enabled AND deleted_at IS NULL`,
    [id, reason, at],
  );
  return r.rowCount > 0;
}

/** Disables every enabled endpoint of the account (account closed): the count disabled. */
export async function disableAccountEndpoints(db: Queryable, accountId: string, reason: string, at: Date): Promise<number> {
  const r = await db.query(
    `UPDATE webhook_endpoints SET enabled = false, disabled_reason = $2, updated_at = $3 WHERE account_id = $1 AND enabled AND deleted_at IS NULL`,
    [accountId, reason, at],
  );
  return r.rowCount;
}
