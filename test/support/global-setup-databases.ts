import pg from 'pg';
import { openDb } from '../../src/infra/storage/db.js';
import { runMigrations } from '../../src/infra/storage/migrate.js';
import { gatewayMigrations } from '../../src/infra/storage/migrations/index.js';
import { fileDatabasePrefix, templateDatabaseName, withDatabase } from './db-names.js';

// On a PostgreSQL server (TEST_DATABASE_URL) every test file gets a database of its own, copied from a
// template this setup migrates once per run (test/support/db.ts); the databases and the older per-worker
// schemas of runs whose process is gone are dropped when a run starts and ends, so the CI server does
// not fill up with old runs and a run never drops what another run beside it still uses. All three
// projects of vitest.config.ts name this setup, and vitest loads it once per project in one process:
// the first to start does the work, the last to end undoes it.
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function withServer<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Drops the test databases and schemas of runs whose process is gone (all of this run's too, when `ours`). */
async function dropLeftovers(url: string, ours: boolean): Promise<void> {
  await withServer(url, async (client) => {
    const schemas = await client.query<{ nspname: string }>(`SELECT nspname FROM pg_namespace WHERE nspname ~ '^t_[0-9]+_[0-9a-z]+$'`);
    for (const { nspname } of schemas.rows) {
      if (alive(Number(nspname.split('_')[1]))) continue;
      await client.query(`DROP SCHEMA IF EXISTS ${nspname} CASCADE`);
    }
    // fgt_<run pid>_... : a file's database or the run's template.
    const dbs = await client.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname ~ '^fgt_[0-9]+_[0-9a-z_]+$'`);
    const mine = fileDatabasePrefix(process.pid);
    for (const { datname } of dbs.rows) {
      const pid = Number(datname.split('_')[1]);
      if (ours ? !datname.startsWith(mine) && alive(pid) : alive(pid)) continue;
      await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    }
  });
}

const shared = globalThis as typeof globalThis & { fgDatabases?: { users: number } };

export async function setup(): Promise<void> {
  const state = (shared.fgDatabases ??= { users: 0 });
  if (state.users++ > 0) return;
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  await dropLeftovers(url, false);
  const template = templateDatabaseName(process.pid);
  await withServer(url, (client) => client.query(`CREATE DATABASE ${template}`));
  const db = await openDb({ databaseUrl: withDatabase(url, template), poolSize: 2 });
  try {
    await runMigrations(db, gatewayMigrations);
  } finally {
    await db.close();
  }
  // The workers are forked after the global setup and inherit its environment.
  process.env.TEST_TEMPLATE_DATABASE = template;
}

export async function teardown(): Promise<void> {
  const state = shared.fgDatabases;
  if (!state || --state.users > 0) return;
  delete shared.fgDatabases;
  const url = process.env.TEST_DATABASE_URL;
  // KEEP_TEST_SCHEMAS=1 leaves them for a post-mortem look.
  if (url && process.env.KEEP_TEST_SCHEMAS !== '1') await dropLeftovers(url, true);
}
