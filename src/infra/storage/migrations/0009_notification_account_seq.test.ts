import { describe, expect, it } from 'vitest';
import { getTestDb } from '../../../../test/support/db.js';
import { gatewayMigrations } from './index.js';

// Migration 0009 on a database that already holds notifications: each account's are numbered 1, 2, ...
// in their old order, and the next one written continues its account's numbers. Run in a schema of
// its own inside a transaction that is rolled back, so the shared test database is left as it was.
const statements = (sql: string) => sql.split(/;\s*(?:\n|$)/).map((s) => s.trim()).filter(Boolean);

describe('migration 0009 (per-account notification numbers)', () => {
  it('numbers existing notifications per account and continues from there', async () => {
    const db = await getTestDb();
    const schema = `probe_0009_${Math.random().toString(36).slice(2, 8)}`;
    const rollback = new Error('rollback');
    const seen = await db
      .transaction(async (tx) => {
        await tx.query(`CREATE SCHEMA ${schema}`);
        await tx.query(`SET LOCAL search_path TO ${schema}`);
        const [before, m0009] = [gatewayMigrations.migrations.filter((m) => m.id < 9), gatewayMigrations.migrations.find((m) => m.id === 9)!];
        for (const m of before) for (const s of statements(m.sql)) await tx.query(s);
        await tx.query(`INSERT INTO accounts (id, name) VALUES ('acc_a', 'A'), ('acc_b', 'B')`);
        const insert = (id: string, account: string) =>
          tx.query(
            `INSERT INTO notifications (id, account_id, type, title, body, data, source_key, created_at) VALUES ($1, $2, 't', $1, $1, '{}', $1, now())`,
            [id, account],
          );
        for (const [id, account] of [['n1', 'acc_a'], ['n2', 'acc_b'], ['n3', 'acc_a'], ['n4', 'acc_a'], ['n5', 'acc_b']]) await insert(id!, account!);
        for (const s of statements(m0009.sql)) await tx.query(s);
        await insert('n6', 'acc_b');
        await insert('n7', 'acc_a');
        const r = await tx.query<{ id: string; account_seq: string }>('SELECT id, account_seq::text FROM notifications ORDER BY id');
        throw Object.assign(rollback, { rows: r.rows });
      })
      .catch((e: Error & { rows?: unknown }) => {
        if (e !== rollback) throw e;
        return e.rows as Array<{ id: string; account_seq: string }>;
      });
    expect(Object.fromEntries(seen.map((r) => [r.id, Number(r.account_seq)]))).toEqual({ n1: 1, n2: 1, n3: 2, n4: 3, n5: 2, n6: 3, n7: 4 });
    const left = await db.query<{ n: string | null }>('SELECT to_regnamespace($1)::text AS n', [schema]);
    expect(left.rows[0]!.n).toBeNull();
  });
});
