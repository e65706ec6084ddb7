import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Db } from '../../infra/storage/db.js';
import type { NotificationBus } from './notification-bus.js';
import { latestNotificationSeq, notificationResumePoint, notificationsAfter } from './storage/notification-repository.js';
import { presentNotification } from './notification-view.js';

export interface StreamOptions {
  accountId: string;
  /** The Last-Event-ID header of a reconnecting client: replay everything after it. */
  lastEventId: string | undefined;
  requestId: string;
  /** Headers the hooks already set (rate limit, request id): a hijacked reply must write them itself. */
  headers?: Record<string, unknown>;
  heartbeatMs?: number;
}

// A comment line every 15 s keeps proxies from closing an idle stream (and re-reads the table,
// in case a wake-up message was lost).
const HEARTBEAT_MS = 15_000;
// Notifications whose transaction committed after a higher seq was already streamed are still
// caught: each read looks this many seqs back and skips what was sent.
const LOOKBACK = 1_000;

/**
 * Server-sent events of an account's notifications: `id` is the notification's seq in its account
 * (1, 2, ...: nothing about other accounts; migration 0009), so a client that
 * reconnects with Last-Event-ID gets every notification after it (WHATWG HTML, server-sent events).
 */
export async function streamNotifications(ctx: { db: Db; notifications: NotificationBus }, req: IncomingMessage, res: ServerResponse, o: StreamOptions): Promise<void> {
  const resumeFrom = /^\d{1,18}$/.test(o.lastEventId ?? '') ? Number(o.lastEventId) : null;
  // Seqs at or below the start were delivered before (Last-Event-ID) or predate this stream.
  const startCursor =
    resumeFrom === null ? await latestNotificationSeq(ctx.db, o.accountId) : await notificationResumePoint(ctx.db, o.accountId, resumeFrom);
  let cursor = startCursor;
  const sent = new Set<number>();
  let closed = false;
  let pumping: Promise<void> | null = null;
  let again = false;

  res.writeHead(200, {
    ...(o.headers as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    // Personal data, like every authenticated answer (http/plugins/response-headers.ts): never stored.
    'cache-control': 'no-store, no-transform',
    'x-content-type-options': 'nosniff',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-request-id': o.requestId,
  });
  res.write(`retry: 3000\n: connected\n\n`);

  const readOnce = async () => {
    const rows = await notificationsAfter(ctx.db, o.accountId, Math.max(startCursor, cursor - LOOKBACK), LOOKBACK + 500);
    for (const row of rows) {
      const seq = Number(row.seq);
      if (sent.has(seq)) continue;
      sent.add(seq);
      cursor = Math.max(cursor, seq);
      res.write(`id: ${seq}\nevent: notification\ndata: ${JSON.stringify(presentNotification(row))}\n\n`);
    }
    for (const s of sent) if (s <= cursor - LOOKBACK) sent.delete(s);
  };

  const pump = (): void => {
    if (closed) return;
    if (pumping) {
      again = true;
      return;
    }
    pumping = readOnce()
      .catch(() => undefined) // storage hiccup: the next wake-up or heartbeat reads again
      .finally(() => {
        pumping = null;
        if (again) {
          again = false;
          pump();
        }
      });
  };

  const unsubscribe = ctx.notifications.subscribe(o.accountId, pump);
  const heartbeat = setInterval(() => {
    res.write(`: heartbeat ${new Date().toISOString()}\n\n`);
    pump();
  }, o.heartbeatMs ?? HEARTBEAT_MS);
  const stop = () => {
    closed = true;
    clearInterval(heartbeat);
    unsubscribe();
  };
  req.on('close', stop);
  res.on('close', stop);
  pump();
}
