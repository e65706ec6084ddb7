// The shape of a database handle, apart from any driver: what storage implements (infra/storage/db.ts,
// PGlite or a `pg` pool) and what the job queue and the repositories take. Here, below both, so that
// the queue (infra/queue/) and storage (infra/storage/) need not import each other.

export interface QueryResult<R> {
  rows: R[];
  rowCount: number;
}

/** Anything that runs one parameterised statement: the database itself or an open transaction. */
export interface Queryable {
  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>>;
}

/**
 * The one storage handle of the process. Same SQL dialect (PostgreSQL) whether it is the embedded
 * PGlite or a server reached through a `pg` pool (docs/decisions.md#components).
 */
export interface Db extends Queryable {
  readonly kind: 'pglite' | 'pg';
  /** Runs several statements separated by semicolons (migrations). */
  exec(sql: string): Promise<void>;
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
