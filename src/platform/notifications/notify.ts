import type { Db, Queryable } from '../../infra/storage/db.js';
import type { NotificationBus } from './notification-bus.js';
import { insertNotification, type NotificationRow } from './storage/notification-repository.js';

export interface NotificationInput {
  accountId: string;
  /** e.g. certificate.expiring, webhook.disabled, nfce.rejected */
  type: string;
  title: string;
  body: string;
  data: unknown;
  /** What it comes from (event id, alert key): one notification per source, ever. */
  sourceKey: string;
  at: Date;
}

/** Writes an in-app notification in the caller's transaction; announce it with `announceNotifications` after commit. */
export function writeNotification(tx: Queryable, n: NotificationInput): Promise<NotificationRow | null> {
  return insertNotification(tx, n);
}

/** Wakes the notification streams of these accounts in every process (after the commit, never before). */
export async function announceNotifications(ctx: { notifications: NotificationBus }, accountIds: Iterable<string>): Promise<void> {
  for (const accountId of new Set(accountIds)) {
    // A lost wake-up only delays the stream until its next heartbeat read; never fail the caller for it.
    await ctx.notifications.publish(accountId).catch(() => undefined);
  }
}

/** One notification, written and announced (for callers outside a larger transaction, e.g. another process). */
export async function createNotification(ctx: { db: Db; notifications: NotificationBus }, n: NotificationInput): Promise<NotificationRow | null> {
  const row = await writeNotification(ctx.db, n);
  if (row) await announceNotifications(ctx, [row.account_id]);
  return row;
}
