import { describe, expect, it } from 'vitest';
import { getTestDb } from '../../test/support/db.js';
import { runMigrations } from './migrate.js';

describe('storage', () => {
  it('runs parameterised queries and rolls a failed transaction back', async () => {
    const db = await getTestDb();
    await db.exec('CREATE TABLE IF NOT EXISTS t_storage_probe (id text PRIMARY KEY, n integer NOT NULL)');
    const id = 'p' + Math.random().toString(36).slice(2);
    await db.query('INSERT INTO t_storage_probe (id, n) VALUES ($1, $2)', [id, 1]);
    await expect(
      db.transaction(async (tx) => {
        await tx.query('UPDATE t_storage_probe SET n = 2 WHERE id = $1', [id]);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const r = await db.query<{ n: number }>('SELECT n FROM t_storage_probe WHERE id = $1', [id]);
    expect(r.rows[0]?.n).toBe(1);
  });

  it('applies a migration set once, even when started concurrently', async () => {
    const db = await getTestDb();
    const table = 'probe_migrations_' + Math.random().toString(36).slice(2, 8);
    const tname = 't_' + table;
    const set = { table, migrations: [{ id: 1, name: 'one', sql: `CREATE TABLE ${tname} (x int);\nINSERT INTO ${tname} VALUES (1);` }] };
    const results = await Promise.all([runMigrations(db, set), runMigrations(db, set)]);
    expect(results.flat()).toEqual([1]);
    const r = await db.query<{ c: number }>(`SELECT count(*)::int AS c FROM ${tname}`);
    expect(r.rows[0]?.c).toBe(1);
    await db.exec(`DROP TABLE ${tname}; DROP TABLE ${table}`);
  });
});
