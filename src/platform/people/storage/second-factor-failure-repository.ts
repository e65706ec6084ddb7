import type { Queryable } from '../../../infra/storage/db.js';

export interface SecondFactorRule {
  /** Tries without delay. */
  free: number;
  /** After `free` failures, each further try waits 2^(failures - free) seconds, at most this. */
  maxSeconds: number;
}

/**
 * Counts one second-factor try of the user before its code is checked, unless the user's delay is
 * still running (answers null then). One INSERT ... ON CONFLICT DO UPDATE: PostgreSQL takes the row
 * lock and re-reads the count under it, so parallel tries are counted one after the other and the
 * ones inside the delay are refused, never checked. `exempt` (a trusted device) is counted, not held.
 */
export async function countSecondFactorTry(db: Queryable, userId: string, now: Date, rule: SecondFactorRule, exempt: boolean): Promise<number | null> {
  const r = await db.query<{ failures: number }>(
    `INSERT INTO second_factor_failures AS f (user_id, failures, last_at) VALUES ($1, 1, $2)
     ON CONFLICT (user_id) DO UPDATE SET failures = f.failures + 1, last_at = $2
     WHERE $5::boolean OR f.failures < $3
       OR f.last_at + least(power(2, least(f.failures - $3, 30)), $4) * interval '1 second' <= $2
     RETURNING f.failures`,
    [userId, now, rule.free, rule.maxSeconds, exempt],
  );
  return r.rows[0]?.failures ?? null;
}

export async function getSecondFactorFailures(db: Queryable, userId: string): Promise<{ failures: number; last_at: Date } | undefined> {
  const r = await db.query<{ failures: number; last_at: Date }>('SELECT failures, last_at FROM second_factor_failures WHERE user_id = $1', [userId]);
  return r.rows[0];
}

/** A successful second factor: the count starts again. */
export async function clearSecondFactorFailures(db: Queryable, userId: string): Promise<void> {
  await db.query('DELETE FROM second_factor_failures WHERE user_id = $1', [userId]);
}
