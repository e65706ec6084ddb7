import { EventEmitter } from 'node:events';
import pg from 'pg';
import { Redis } from 'ioredis';
import type { Config } from '../../config.js';
import type { Db } from '../../infra/storage/db.js';

/**
 * Wakes server-sent-event streams when an account gets a notification, in every process (docs/decisions.md#components:
 * Redis when REDIS_URL is set, PostgreSQL LISTEN/NOTIFY otherwise, in-process for the embedded PGlite,
 * which no other process can open). A message is only a hint: streams read the rows themselves
 * (after the last seq they sent), so a lost message delays nothing beyond the next heartbeat.
 */
export interface NotificationBus {
  readonly kind: 'redis' | 'postgres' | 'memory';
  /** Call after the transaction that wrote the notification committed. */
  publish(accountId: string): Promise<void>;
  subscribe(accountId: string, listener: () => void): () => void;
  close(): Promise<void>;
}

const CHANNEL = 'fiscal_gateway_notifications';

/** Local fan-out to the streams of this process, shared by every transport. */
class Listeners {
  private readonly emitter = new EventEmitter().setMaxListeners(0);
  on(accountId: string, listener: () => void): () => void {
    this.emitter.on(accountId, listener);
    return () => void this.emitter.off(accountId, listener);
  }
  emit(accountId: string): void {
    this.emitter.emit(accountId);
  }
}

// PGlite lives in one process: apps sharing one handle (tests, `--role all`) share one bus.
const memoryBuses = new WeakMap<Db, Listeners>();

export async function openNotificationBus(config: Pick<Config, 'redisUrl' | 'databaseUrl'>, db: Db): Promise<NotificationBus> {
  if (config.redisUrl) return redisBus(config.redisUrl);
  if (db.kind === 'pg' && config.databaseUrl) return postgresBus(config.databaseUrl, db);
  let local = memoryBuses.get(db);
  if (!local) memoryBuses.set(db, (local = new Listeners()));
  const listeners = local;
  return {
    kind: 'memory',
    async publish(accountId) {
      listeners.emit(accountId);
    },
    subscribe: (accountId, listener) => listeners.on(accountId, listener),
    async close() {},
  };
}

async function redisBus(url: string): Promise<NotificationBus> {
  const listeners = new Listeners();
  const pub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
  const sub = new Redis(url, { lazyConnect: true });
  // A Redis outage must not crash the process; ioredis reconnects and re-subscribes by itself.
  pub.on('error', () => undefined);
  sub.on('error', () => undefined);
  sub.on('message', (_channel: string, accountId: string) => listeners.emit(accountId));
  // Start even while Redis is down (a process restarting during an outage must come up): wait a
  // little for it, then go on; ioredis keeps reconnecting and re-subscribes (autoResubscribe), and a
  // subscription that never happened is made on the first 'ready'.
  let subscribed = false;
  const subscribe = () => sub.subscribe(CHANNEL).then(() => void (subscribed = true));
  sub.on('ready', () => void (subscribed ? undefined : subscribe().catch(() => undefined)));
  const connected = Promise.all([pub.connect(), sub.connect()]).then(subscribe);
  await Promise.race([connected.catch(() => undefined), new Promise((r) => setTimeout(r, 2_000).unref())]);
  return {
    kind: 'redis',
    async publish(accountId) {
      // Other processes learn of it on their next poll/resume when Redis is away; this one at once.
      if (pub.status !== 'ready') return void listeners.emit(accountId);
      await pub.publish(CHANNEL, accountId);
    },
    subscribe: (accountId, listener) => listeners.on(accountId, listener),
    async close() {
      sub.disconnect();
      pub.disconnect();
    },
  };
}

// LISTEN needs a session of its own: a pooled connection goes back to the pool between queries.
async function postgresBus(url: string, db: Db): Promise<NotificationBus> {
  const listeners = new Listeners();
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const schedule = (): void => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      connect().catch(schedule);
    }, 1_000);
  };
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url });
    const lost = () => {
      if (client !== c) return;
      client = undefined;
      void c.end().catch(() => undefined);
      schedule();
    };
    c.on('notification', (msg) => msg.payload && listeners.emit(msg.payload));
    c.on('error', lost);
    c.on('end', lost);
    await c.connect();
    await c.query(`LISTEN ${CHANNEL}`);
    if (closed) await c.end();
    else client = c;
  };
  await connect();
  return {
    kind: 'postgres',
    async publish(accountId) {
      await db.query('SELECT pg_notify($1, $2)', [CHANNEL, accountId]);
    },
    subscribe: (accountId, listener) => listeners.on(accountId, listener),
    async close() {
      closed = true;
      clearTimeout(retry);
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };
}
