import { notFound } from '../../kernel/errors.js';
import { page } from '../../kernel/page.js';
import type { Clock } from '../../kernel/clock.js';
import type { Db } from '../../infra/storage/db.js';
import { listNotifications, markNotificationRead, type NotificationRow } from './storage/notification-repository.js';

// The ports by name, not Pick<Ports, ...>: ports.ts imports this folder's NotificationBus, and a
// type import back would make the two folders a cycle.
interface InboxDeps {
  db: Db;
  clock: Clock;
}

/** A page of the account's in-app notifications, unread first, then newest first. */
export async function listNotificationPage(deps: Pick<InboxDeps, 'db'>, accountId: string, limit: number, startingAfter?: string) {
  return page(await listNotifications(deps.db, accountId, limit + 1, startingAfter), limit);
}

/** Marks a notification read; reading it again keeps the first read_at. */
export async function readNotification(deps: InboxDeps, accountId: string, id: string): Promise<NotificationRow> {
  const row = await markNotificationRead(deps.db, accountId, id, deps.clock.now());
  if (!row) throw notFound('Notification');
  return row;
}
