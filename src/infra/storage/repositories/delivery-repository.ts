import type { Queryable } from '../db.js';
import { newId } from '../../../kernel/ids.js';

export type DeliveryState = 'pending' | 'succeeded' | 'failed' | 'canceled';
export type AttemptTrigger = 'automatic' | 'replay' | 'test';

export interface DeliveryRow {
  id: string;
  account_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  subject_id: string | null;
  event_seq: number | null;
  payload: string;
  state: DeliveryState;
  attempt_count: number;
  last_status_code: number | null;
  next_attempt_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface AttemptRow {
  delivery_id: string;
  attempt: number;
  trigger: AttemptTrigger;
  attempted_at: Date;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  response_excerpt: string | null;
  next_retry_at: Date | null;
}

const COLUMNS =
  'id, account_id, endpoint_id, event_id, event_type, subject_id, event_seq, payload, state, attempt_count, last_status_code, next_attempt_at, created_at, updated_at';

export interface OutboxEvent {
  id: string;
  seq: number;
  account_id: string;
  type: string;
  subject_type: string;
  subject_id: string;
  data: unknown;
  created_at: Date;
}

export async function getOutboxEvent(db: Queryable, id: string): Promise<OutboxEvent | null> {
  const r = await db.query<OutboxEvent>(
    'SELECT id, seq, account_id, type, subject_type, subject_id, data, created_at FROM events WHERE id = $1',
    [id],
  );
  return r.rows[0] ?? null;
}

/** One delivery per (endpoint, event): null when the fan-out already made it. */
export async function insertDelivery(
  tx: Queryable,
  d: { accountId: string; endpointId: string; eventId: string; eventType: string; subjectId: string | null; eventSeq: number | null; payload: string; at: Date },
): Promise<DeliveryRow | null> {
  const r = await tx.query<DeliveryRow>(
    `INSERT INTO webhook_deliveries (id, account_id, endpoint_id, event_id, event_type, subject_id, event_seq, payload, next_attempt_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, $9) ON CONFLICT (endpoint_id, event_id) DO NOTHING RETURNING ${COLUMNS}`,
    [newId('dlv'), d.accountId, d.endpointId, d.eventId, d.eventType, d.subjectId, d.eventSeq, d.payload, d.at],
  );
  return r.rows[0] ?? null;
}

export async function getDelivery(db: Queryable, id: string, accountId?: string): Promise<DeliveryRow | null> {
  const r = await db.query<DeliveryRow>(
    `SELECT ${COLUMNS} FROM webhook_deliveries WHERE id = $1 AND ($2::text IS NULL OR account_id = $2)`,
    [id, accountId ?? null],
  );
  return r.rows[0] ?? null;
}

export async function listDeliveries(db: Queryable, endpointId: string, limit: number, startingAfter?: string): Promise<DeliveryRow[]> {
  const r = await db.query<DeliveryRow>(
    `SELECT ${COLUMNS} FROM webhook_deliveries
      WHERE endpoint_id = $1
        AND ($3::text IS NULL OR (created_at, id) < (SELECT created_at, id FROM webhook_deliveries WHERE endpoint_id = $1 AND id = $3))
      ORDER BY created_at DESC, id DESC LIMIT $2`,
    [endpointId, limit, startingAfter ?? null],
  );
  return r.rows;
}

export async function attemptsOf(db: Queryable, deliveryIds: string[]): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  const r = await db.query<AttemptRow>(
    `SELECT delivery_id, attempt, trigger, attempted_at, status_code, latency_ms, error, response_excerpt, next_retry_at
       FROM webhook_attempts WHERE delivery_id = ANY($1) ORDER BY delivery_id, attempt`,
    [deliveryIds],
  );
  return r.rows;
}

/** An earlier event about the same record still waiting for this endpoint (per-record ordering). */
export async function earlierPendingDelivery(db: Queryable, d: DeliveryRow): Promise<DeliveryRow | null> {
  if (d.subject_id === null || d.event_seq === null) return null;
  const r = await db.query<DeliveryRow>(
    `SELECT ${COLUMNS} FROM webhook_deliveries
      WHERE endpoint_id = $1 AND subject_id = $2 AND state = 'pending' AND event_seq < $3
      ORDER BY event_seq LIMIT 1`,
    [d.endpoint_id, d.subject_id, d.event_seq],
  );
  return r.rows[0] ?? null;
}

/** Appends an attempt (numbered under the row lock) and moves the delivery to its new state. */
export async function recordAttempt(
  tx: Queryable,
  deliveryId: string,
  a: Omit<AttemptRow, 'delivery_id' | 'attempt'>,
  next: { state: DeliveryState; nextAttemptAt: Date | null },
): Promise<number> {
  const r = await tx.query<{ attempt_count: number }>(
    `UPDATE webhook_deliveries SET attempt_count = attempt_count + 1, last_status_code = $2, state = $3, next_attempt_at = $4, updated_at = $5
      WHERE id = $1 RETURNING attempt_count`,
    [deliveryId, a.status_code, next.state, next.nextAttemptAt, a.attempted_at],
  );
  const attempt = r.rows[0]!.attempt_count;
  await tx.query(
    `INSERT INTO webhook_attempts (delivery_id, attempt, trigger, attempted_at, status_code, latency_ms, error, response_excerpt, next_retry_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [deliveryId, attempt, a.trigger, a.attempted_at, a.status_code, a.latency_ms, a.error, a.response_excerpt, a.next_retry_at],
  );
  return attempt;
}

export async function setDeliveryState(db: Queryable, id: string, state: DeliveryState, at: Date): Promise<void> {
  await db.query(`UPDATE webhook_deliveries SET state = $2, next_attempt_at = NULL, updated_at = $3 WHERE id = $1`, [id, state, at]);
}
