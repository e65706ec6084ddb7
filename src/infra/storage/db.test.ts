import { describe, expect, it } from 'vitest';
import { getTestDb } from '../../../test/support/db.js';
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

  it('keeps answering a prepared SELECT * after its table gained a column (a newer version migrated)', async () => {
    const db = await getTestDb();
    const table = 't_shape_' + Math.random().toString(36).slice(2, 8);
    await db.exec(`CREATE TABLE ${table} (id int)`);
    await db.query(`INSERT INTO ${table} VALUES ($1)`, [1]);
    const select = `SELECT * FROM ${table} WHERE id = $1`;
    // Every connection of the pool prepares it, so whichever answers next has the stale form.
    await Promise.all(Array.from({ length: 20 }, () => db.query(select, [1])));
    await db.exec(`ALTER TABLE ${table} ADD COLUMN note text DEFAULT 'x'`);
    const after = await Promise.all(Array.from({ length: 5 }, () => db.query(select, [1])));
    for (const r of after) expect(r.rows).toEqual([{ id: 1, note: 'x' }]);
    // Inside a transaction the first try is lost with the transaction; the retry succeeds.
    await db.exec(`ALTER TABLE ${table} ADD COLUMN more int DEFAULT 2`);
    const inTx = () => db.transaction((tx) => tx.query(select, [1]));
    const first = await inTx().then((r) => r.rows, (e: Error) => e);
    const second = await inTx();
    expect(second.rows).toEqual([{ id: 1, note: 'x', more: 2 }]);
    if (!(first instanceof Error)) expect(first).toEqual(second.rows);
    await db.exec(`DROP TABLE ${table}`);
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
