import type { Db } from '../../src/infra/storage/db.js';
import { newId } from '../../src/kernel/ids.js';
import { openDb } from '../../src/infra/storage/db.js';

// One database handle per test worker process, shared by every file it runs (vitest runs with
// isolate: false). A PGlite instance costs ~2 s and hundreds of MB, so it must not be per file.
// TEST_DATABASE_URL switches every storage test to a real PostgreSQL server.
let shared: Promise<Db> | undefined;
export const testSchema = `t_${process.pid}_${Date.now().toString(36)}`;

export function getTestDb(): Promise<Db> {
  if (!shared) {
    // On a server each worker gets a schema of its own: runs never see each other's (or an older
    // run's) tables, and migrations are always the current ones.
    shared = openDb({ databaseUrl: process.env.TEST_DATABASE_URL, poolSize: 20, schema: testSchema }).then((db) => {
      process.once('beforeExit', () => void db.close());
      return db;
    });
  }
  return shared;
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
