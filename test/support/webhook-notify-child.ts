// Another process (acceptance): writes one notification through the service into the same
// PostgreSQL schema and announces it on the configured bus, then prints its id and the time it
// began writing it.
import { openDb } from '../../src/infra/storage/db.js';
import { openNotificationBus } from '../../src/platform/notifications/notification-bus.js';
import { createNotification } from '../../src/platform/notifications/notify.js';

async function main(): Promise<void> {
  const [accountId, schema, title] = process.argv.slice(2) as [string, string, string];
  const databaseUrl = process.env.DATABASE_URL!;
  const db = await openDb({ databaseUrl, schema, poolSize: 2 });
  const notifications = await openNotificationBus({ databaseUrl, redisUrl: process.env.REDIS_URL || undefined }, db);
  const writing = Date.now();
  const row = await createNotification({ db, notifications }, {
    accountId, type: 'test.cross_process', title, body: `from pid ${process.pid}`, data: { pid: process.pid }, sourceKey: `child:${title}:${Date.now()}`, at: new Date(),
  });
  process.stdout.write(`${row!.id} ${writing}\n`);
  await notifications.close();
  await db.close();
}
void main();
