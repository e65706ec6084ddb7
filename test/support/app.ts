import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildAppOptions } from '../../src/app.js';
import { prepareDatabase } from '../../src/bootstrap.js';
import type { Clock } from '../../src/clock.js';
import { systemClock } from '../../src/clock.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createAccount } from '../../src/cli/create-account.js';
import type { Db } from '../../src/storage/db.js';
import { getTestDb } from './db.js';

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: Config;
  /** A fresh account with an all-scopes key: tests never see each other's records. */
  newAccount(name?: string): Promise<{ accountId: string; key: string; auth: { authorization: string } }>;
}

let prepared: Promise<void> | undefined;

export async function createTestApp(
  opts: { env?: Record<string, string>; clock?: Clock; options?: BuildAppOptions } = {},
): Promise<TestApp> {
  const db = await getTestDb();
  // Generous default limit: only the rate-limit test wants to hit it.
  const config = loadConfig({ RATE_LIMIT_PER_MINUTE: '100000', DATA_DIR: '/tmp/fiscal-gateway-test', ...opts.env });
  prepared ??= prepareDatabase(db, { env: 'sandbox' });
  await prepared;
  const app = await buildApp({ config, db, clock: opts.clock ?? systemClock }, opts.options);
  await app.ready();
  return {
    app,
    db,
    config,
    async newAccount(name = 'Test account') {
      const { accountId, key } = await createAccount(db, config, name);
      return { accountId, key, auth: { authorization: `Bearer ${key}` } };
    },
  };
}
