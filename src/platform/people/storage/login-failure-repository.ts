import type { Queryable } from '../../../infra/storage/db.js';

export interface LoginFailureRow {
  key: string;
  failures: number;
  first_at: Date;
  last_at: Date;
}

export async function getLoginFailures(db: Queryable, keys: string[]): Promise<LoginFailureRow[]> {
  const r = await db.query<LoginFailureRow>('SELECT key, failures, first_at, last_at FROM login_failures WHERE key = ANY($1)', [keys]);
  return r.rows;
}

/** One more failure for each key; a count older than `windowStart` starts again from one. */
export async function addLoginFailure(db: Queryable, keys: string[], at: Date, windowStart: Date): Promise<void> {
  await db.query(
    `INSERT INTO login_failures (key, failures, first_at, last_at) SELECT k, 1, $2, $2 FROM unnest($1::text[]) AS k
     ON CONFLICT (key) DO UPDATE SET
       failures = CASE WHEN login_failures.last_at < $3 THEN 1 ELSE login_failures.failures + 1 END,
       first_at = CASE WHEN login_failures.last_at < $3 THEN $2 ELSE login_failures.first_at END,
       last_at = $2`,
    [keys, at, windowStart],
  );
}

export async function clearLoginFailures(db: Queryable, keys: string[]): Promise<void> {
  await db.query('DELETE FROM login_failures WHERE key = ANY($1)', [keys]);
}
