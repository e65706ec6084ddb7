import type { Db } from '../../src/infra/storage/db.js';
import { newId } from '../../src/kernel/ids.js';
import { openDb } from '../../src/infra/storage/db.js';
import { prepareDatabase } from '../../src/bootstrap.js';

// One database handle per test worker process, shared by every file it runs (vitest runs with
// isolate: false). A PGlite instance costs ~2 s and hundreds of MB, so it must not be per file.
// TEST_DATABASE_URL switches every storage test to a real PostgreSQL server.
let shared: Promise<Db> | undefined;
/** What file-isolation.ts finds on globalThis once a file of this worker has opened the database. */
export type TestDbHandle = typeof globalThis & { fgTestDbEmpty?: () => Promise<void> };
export const testSchema = `t_${process.pid}_${Date.now().toString(36)}`;

export function getTestDb(): Promise<Db> {
  if (!shared) {
    // On a server each worker gets a schema of its own: runs never see each other's (or an older
    // run's) tables, and migrations are always the current ones.
    shared = openDb({ databaseUrl: process.env.TEST_DATABASE_URL, poolSize: 20, schema: testSchema }).then((db) => {
      process.once('beforeExit', () => void db.close());
      return db;
    });
    // Seen by the next file's setup (file-isolation.ts), which need not import storage to find it.
    const opened = shared;
    (globalThis as TestDbHandle).fgTestDbEmpty = async () => emptyForNextFile(await opened);
  }
  return shared;
}

/**
 * Empties the worker's database for the next test file (test/support/file-isolation.ts): every table
 * of its schema emptied and the sandbox's seed (the sandbox account, the technical responsible)
 * written again, so no file sees another's accounts, notes, jobs, breakers or the simulator's
 * records. The schema and its migrations stay: making them per file costs 1-2 s, these DELETEs a
 * few milliseconds (measured on the 55 tables). Without superuser rights to skip the foreign-key
 * triggers, TRUNCATE ... CASCADE does the same, slower.
 */
async function emptyForNextFile(db: Db): Promise<void> {
  const tables = (
    await db.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'schema_migrations'`)
  ).rows.map((r) => `"${r.name}"`);
  if (tables.length === 0) return;
  try {
    // One transaction on one connection: a failure rolls it back there, and leaves no pooled connection inside it.
    await db.transaction(async (tx) => {
      await tx.query('SET LOCAL session_replication_role = replica');
      for (const t of tables) await tx.query(`DELETE FROM ${t}`);
    });
  } catch {
    await db.exec(`TRUNCATE ${tables.join(', ')} CASCADE`);
  }
  await prepareDatabase(db, { env: 'sandbox' });
}

/** An issuer row of the sandbox account with nothing else (storage tests of numbering and notes). */
export async function insertBareIssuer(db: Db, name: string): Promise<string> {
  const id = newId('iss');
  const now = new Date();
  await db.query(
    `INSERT INTO issuers (id, account_id, cnpj, razao_social, ie, uf, ambiente, regime_tributario, created_at, updated_at)
     VALUES ($1, 'acc_sandbox', $2, $3, '110042490114', 'SP', 'homologacao', 'simples', $4, $4)`,
    [id, id.slice(-14), name, now],
  );
  return id;
}
