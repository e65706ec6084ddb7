import type { Queryable } from '../../../infra/storage/db.js';
import { newId } from '../../../kernel/ids.js';

export interface NotificationRow {
  /** Position in its account's notifications (1, 2, ...): the API's `seq` and the stream's event id. */
  seq: number;
  id: string;
  account_id: string;
  type: string;
  title: string;
  body: string;
  data: Record<string, unknown>;
  read_at: Date | null;
  created_at: Date;
}

// `seq` is the account's own sequence (migration 0009); the table's global `seq`
// column never leaves this file, since it would tell how many notifications other accounts got.
const COLUMNS = 'account_seq AS seq, id, account_id, type, title, body, data, read_at, created_at';

/**
 * Adds a notification once per `sourceKey` (the event or alert it comes from), so a job that runs
 * twice after a crash does not notify twice. Returns null when it already existed.
 */
export async function insertNotification(
  tx: Queryable,
  n: { accountId: string; type: string; title: string; body: string; data: unknown; sourceKey: string; at: Date },
): Promise<NotificationRow | null> {
  const r = await tx.query<NotificationRow>(
    `INSERT INTO notifications (id, account_id, type, title, body, data, source_key, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (source_key) DO NOTHING RETURNING ${COLUMNS}`,
    [newId('ntf'), n.accountId, n.type, n.title, n.body, JSON.stringify(n.data), n.sourceKey, n.at],
  );
  return r.rows[0] ?? null;
}

/** Unread first, then newest first; `startingAfter` continues after that row in the same order. */
export async function listNotifications(db: Queryable, accountId: string, limit: number, startingAfter?: string): Promise<NotificationRow[]> {
  const r = await db.query<NotificationRow>(
    `SELECT ${COLUMNS} FROM notifications n
      WHERE account_id = $1
        AND ($3::text IS NULL OR ((n.read_at IS NULL)::int, n.account_seq) <
             (SELECT (c.read_at IS NULL)::int, c.account_seq FROM notifications c WHERE c.account_id = $1 AND c.id = $3))
      ORDER BY (read_at IS NULL) DESC, account_seq DESC
      LIMIT $2`,
    [accountId, limit, startingAfter ?? null],
  );
  return r.rows;
}

/** What came after `afterSeq`, oldest first: the replay of a server-sent-event stream. */
export async function notificationsAfter(db: Queryable, accountId: string, afterSeq: number, limit = 100): Promise<NotificationRow[]> {
  const r = await db.query<NotificationRow>(
    `SELECT ${COLUMNS} FROM notifications WHERE account_id = $1 AND account_seq > $2 ORDER BY account_seq LIMIT $3`,
    [accountId, afterSeq, limit],
  );
  return r.rows;
}

export async function latestNotificationSeq(db: Queryable, accountId: string): Promise<number> {
  const r = await db.query<{ seq: number | null }>('SELECT max(account_seq) AS seq FROM notifications WHERE account_id = $1', [accountId]);
  return Number(r.rows[0]?.seq ?? 0);
}

/**
 * Where a stream resumes for a client's Last-Event-ID. An id above the account's latest number was
 * not sent as a per-account number: it is an event id sent before migration 0009 (the global
 * sequence), and resumes after the account's last notification that was at or below it. (An old
 * global id at or below the account's latest number cannot be told apart and is read as a
 * per-account one; that takes an account holding more notifications than the whole gateway had
 * when the id was sent, and only for a stream reconnecting across the upgrade.)
 */
export async function notificationResumePoint(db: Queryable, accountId: string, lastEventId: number): Promise<number> {
  const latest = await latestNotificationSeq(db, accountId);
  if (lastEventId <= latest) return lastEventId;
  const r = await db.query<{ seq: number | null }>(
    'SELECT max(account_seq) AS seq FROM notifications WHERE account_id = $1 AND seq <= $2',
    [accountId, lastEventId],
  );
  return Number(r.rows[0]?.seq ?? 0);
}

export async function markNotificationRead(db: Queryable, accountId: string, id: string, at: Date): Promise<NotificationRow | null> {
  const r = await db.query<NotificationRow>(
    `UPDATE notifications SET read_at = COALESCE(read_at, $3) WHERE account_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [accountId, id, at],
  );
  return r.rows[0] ?? null;
}
