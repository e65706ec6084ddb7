import type { Config } from './config.js';
import { ensureSandboxAccount } from './platform/sandbox/sandbox-account.js';
import type { Db } from './infra/storage/db.js';
import { openDb } from './infra/storage/db.js';
import { runMigrations } from './infra/storage/migrate.js';
import { gatewayMigrations } from './infra/storage/migrations/index.js';
import { join } from 'node:path';

export { ensureSandboxAccount };

/** Opens storage (PGlite under DATA_DIR unless DATABASE_URL), migrates, and seeds the sandbox account. */
export async function openStorage(config: Config): Promise<Db> {
  const db = await openDb({
    databaseUrl: config.databaseUrl,
    dataDir: config.databaseUrl ? undefined : join(config.dataDir, 'pglite'),
    poolSize: config.dbPoolSize,
  });
  await prepareDatabase(db, config);
  return db;
}

export async function prepareDatabase(db: Db, config: Pick<Config, 'env'>): Promise<void> {
  await runMigrations(db, gatewayMigrations);
  if (config.env === 'sandbox') await ensureSandboxAccount(db);
}
