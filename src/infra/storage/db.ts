import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';

import type { Db, Queryable, QueryResult } from '../../kernel/db-handle.js';

export type { Db, Queryable, QueryResult };

export interface OpenDbOptions {
  /** postgres://... ; when absent the embedded PGlite is used. */
  databaseUrl?: string | undefined;
  /** PGlite data directory; undefined means in memory (tests). */
  dataDir?: string | undefined;
  /** Pool size for the server. */
  poolSize?: number;
  /** Server only: use (and create) this schema instead of public; tests isolate each run this way. */
  schema?: string;
}

/**
 * The SQLSTATE of a database error (five digits or capitals), or undefined for anything else: a
 * failed connection (ECONNRESET, "Connection terminated") says nothing of what the statement did.
 */
export function sqlState(err: unknown): string | undefined {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

export async function openDb(options: OpenDbOptions): Promise<Db> {
  if (options.databaseUrl) return openPg(options.databaseUrl, options.poolSize ?? 10, options.schema);
  return openPglite(options.dataDir);
}

// pg returns BIGINT/NUMERIC as strings to avoid precision loss; our counters fit in a JS number.
pg.types.setTypeParser(20, (v) => Number(v));

/** The URL with `extra` appended to its `options` (server settings sent at connection: `-c name=value`). */
export function withOptions(url: string, extra: readonly string[]): string {
  const u = new URL(url);
  u.searchParams.set('options', [u.searchParams.get('options'), ...extra].filter(Boolean).join(' '));
  return u.toString();
}

async function openPg(url: string, max: number, schema?: string): Promise<Db> {
  if (schema && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`invalid schema name ${schema}`);
  if (schema) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`).finally(() => admin.end());
  }
  // No JIT: the gateway's statements are short, and a search's plan (a probe per week, platform
  // search) is estimated past jit_above_cost, where compiling took 470 ms of a 490 ms statement
  // (EXPLAIN ANALYZE). Set in the URL's own `options`, which pg prefers to a config key.
  const pool = new pg.Pool({ connectionString: withOptions(url, ['-c jit=off', ...(schema ? [`-c search_path=${schema}`] : [])]), max });
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const toResult = <R>(r: pg.QueryResult): QueryResult<R> => ({ rows: r.rows as R[], rowCount: r.rowCount ?? 0 });
  const statement = preparedStatements();
  return {
    kind: 'pg',
    async query<R>(sql: string, params?: readonly unknown[]) {
      try {
        return toResult<R>(await pool.query(statement(sql, params)));
      } catch (err) {
        // The statement's table changed shape under it (a newer version migrated meanwhile):
        // from now on this text runs unnamed, and this call again at once.
        if (!statement.staleAfter(sql, err)) throw err;
        return toResult<R>(await pool.query(statement(sql, params)));
      }
    },
    async exec(sql) {
      await pool.query(sql);
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const tx: Queryable = {
          async query<R>(sql: string, params?: readonly unknown[]) {
            try {
              return toResult<R>(await client.query(statement(sql, params)));
            } catch (err) {
              statement.staleAfter(sql, err); // the transaction is lost; its retry runs unnamed
              throw err;
            }
          },
        };
        const out = await fn(tx);
        await client.query('COMMIT');
        return out;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    async close() {
      await pool.end();
    },
  };
}

// Distinct statement texts a process prepares; past this, new texts run unnamed (parsed each time).
const MAX_PREPARED = 500;

/**
 * Names each data statement after its text, so every server connection parses and plans it once
 * and then only binds and executes it: planning cost as much as executing on the sale's hot path
 * (pg_stat_statements on bench:emit). Only single DML/SELECT statements qualify.
 */
interface PreparedStatements {
  (sql: string, params?: readonly unknown[]): pg.QueryConfig;
  /** True when `err` says the prepared form of `sql` is stale; the text then runs unnamed. */
  staleAfter(sql: string, err: unknown): boolean;
}

function preparedStatements(): PreparedStatements {
  // null: never prepare this text again.
  const names = new Map<string, string | null>();
  const statement = (sql: string, params?: readonly unknown[]): pg.QueryConfig => {
    let name = names.get(sql);
    if (name === undefined && names.size < MAX_PREPARED && /^\s*(SELECT|WITH|INSERT|UPDATE|DELETE)\b/i.test(sql) && !sql.includes(';')) {
      name = `s_${createHash('sha1').update(sql).digest('hex').slice(0, 24)}`;
      names.set(sql, name);
    }
    return name ? { name, text: sql, values: params as unknown[] } : { text: sql, values: params as unknown[] };
  };
  statement.staleAfter = (sql: string, err: unknown): boolean => {
    // PostgreSQL 0A000 "cached plan must not change result type": e.g. SELECT * after ADD COLUMN.
    const message = (err as { message?: string } | undefined)?.message ?? '';
    // Calls in flight when the first one found out fail the same way: they retry unnamed too.
    if (sqlState(err) !== '0A000' || !/cached plan must not change result type/.test(message) || !names.has(sql)) return false;
    names.set(sql, null);
    return true;
  };
  return statement;
}

/**
 * PGlite's server settings. shared_buffers: PostgreSQL's default 128 MB is taken from the WebAssembly
 * heap up front, which the sandbox's first start paid as ~120 MB of resident memory; the sandbox's
 * data fits in 16 MB many times over and the data files stay in the OS page cache (BENCHMARKS.md,
 * "The first start").
 */
const PGLITE_CONF = ['shared_buffers = 16MB'];

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function openPglite(dataDir: string | undefined): Promise<Db> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // Search (migration 0021) needs these two contrib modules; PGlite only loads what it is given here,
  // and every PGlite of the project (server, tests, simulator) is made by this function.
  const extensions = { pg_trgm, unaccent };
  const lite = dataDir ? await PGlite.create(dataDir, { extensions, postgresqlconf: PGLITE_CONF }) : await PGlite.create({ extensions, postgresqlconf: PGLITE_CONF });
  const toResult = <R>(r: { rows: unknown[]; affectedRows?: number }): QueryResult<R> => ({
    rows: r.rows as R[],
    rowCount: r.affectedRows ?? r.rows.length,
  });
  let closed = false;
  // PGlite runs each statement on this thread, and its own queue hands the session from one
  // statement to the next in promise callbacks: statements waiting back to back ran without the
  // event loop turning once between them, so one account's 20 searches held every other request
  // (/healthz waited 1.9 s). Here each statement (a transaction as a whole) starts on a
  // turn of its own (setImmediate, after I/O is polled), in arrival order: what others wait is
  // the statement running, not the queue in front of them.
  let turn: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const run = turn.then(nextTurn).then(work);
    turn = run.catch(() => undefined);
    return run;
  };
  return {
    kind: 'pglite',
    async query<R>(sql: string, params?: readonly unknown[]) {
      return toResult<R>(await inTurn(() => lite.query(sql, params as unknown[])));
    },
    async exec(sql) {
      await inTurn(() => lite.exec(sql));
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      // PGlite is single-connection: its transaction() holds the only session exclusively; its
      // statements, too, each start on a turn of their own.
      return inTurn(() =>
        lite.transaction(async (t) =>
          fn({
            async query<R>(sql: string, params?: readonly unknown[]) {
              await nextTurn();
              return toResult<R>(await t.query(sql, params as unknown[]));
            },
          }),
        ),
      );
    },
    async close() {
      if (closed) return;
      closed = true;
      await lite.close();
    },
  };
}
