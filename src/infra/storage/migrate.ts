import type { Db } from './db.js';

export interface Migration {
  id: number;
  name: string;
  sql: string;
}

export interface MigrationSet {
  /** Table that records which migrations ran (one per set: gateway, simulator). */
  table: string;
  migrations: readonly Migration[];
}

// Any constant works; it only has to be the same in every process that migrates concurrently.
const MIGRATION_LOCK = 727_165_001;

/**
 * Applies the migrations not yet recorded, in id order, each in its own transaction. Several
 * processes may start at once against one server: an advisory lock lets one migrate at a time.
 */
export async function runMigrations(db: Db, set: MigrationSet): Promise<number[]> {
  // One transaction for the whole set (PostgreSQL DDL is transactional); the transaction-scoped
  // advisory lock makes concurrent starters wait for the first instead of racing it.
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS ${set.table} (id integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const done = new Set((await tx.query<{ id: number }>(`SELECT id FROM ${set.table}`)).rows.map((r) => r.id));
    const applied: number[] = [];
    for (const m of [...set.migrations].sort((a, b) => a.id - b.id)) {
      if (done.has(m.id)) continue;
      for (const statement of splitStatements(m.sql)) await tx.query(statement);
      await tx.query(`INSERT INTO ${set.table} (id, name) VALUES ($1, $2)`, [m.id, m.name]);
      applied.push(m.id);
    }
    return applied;
  });
}

/** Migration files hold plain statements separated by `;` at line ends (no functions with bodies). */
function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

export async function pendingMigrations(db: Db, set: MigrationSet): Promise<number[]> {
  const exists = await db.query<{ t: string | null }>('SELECT to_regclass($1) AS t', [set.table]);
  if (!exists.rows[0]?.t) return set.migrations.map((m) => m.id);
  const done = new Set((await db.query<{ id: number }>(`SELECT id FROM ${set.table}`)).rows.map((r) => r.id));
  return set.migrations.filter((m) => !done.has(m.id)).map((m) => m.id);
}
