import type { Queryable } from '../db.js';

export interface IdempotencyScope {
  accountId: string;
  method: string;
  path: string;
  key: string;
}

export interface IdempotencyRecord {
  body_hash: string;
  state: 'in_progress' | 'completed';
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: string | null;
  expires_at: Date;
  locked_until: Date;
}

const WHERE = 'account_id = $1 AND method = $2 AND path = $3 AND key = $4';

// The claim and the recorded answer are bookkeeping around the request's own writes: their commit
// does not wait for the WAL to reach the disk (synchronous_commit off for that statement's implicit
// transaction only). Losing them takes a crash of the database server itself within a fraction of a
// second, and then the request's own durable writes still decide: a note that exists under the key
// is the answer (the notes' unique index), and a claim that never reached the disk was never made.
// WAL is written in order, so a durable write after the claim makes the claim durable too.
const NO_FLUSH_WAIT = `SELECT set_config('synchronous_commit', 'off', true)`;
const params = (s: IdempotencyScope) => [s.accountId, s.method, s.path, s.key];

/**
 * Claims the key for this request. The primary key makes the claim atomic across processes: of any
 * number of concurrent requests exactly one inserts. An expired key, or the claim of a process that
 * died mid-request (lock passed), is taken over in the same statement.
 */
export async function claimIdempotencyKey(
  db: Queryable,
  s: IdempotencyScope,
  bodyHash: string,
  now: Date,
  expiresAt: Date,
  lockedUntil: Date,
): Promise<boolean> {
  const r = await db.query(
    `WITH relaxed AS (${NO_FLUSH_WAIT})
     INSERT INTO idempotency_keys (account_id, method, path, key, body_hash, state, created_at, expires_at, locked_until)
     SELECT $1, $2, $3, $4, $5, 'in_progress', $6, $7, $8 FROM relaxed
     ON CONFLICT (account_id, method, path, key) DO UPDATE
        SET body_hash = EXCLUDED.body_hash, state = 'in_progress', created_at = EXCLUDED.created_at,
            expires_at = EXCLUDED.expires_at, locked_until = EXCLUDED.locked_until,
            response_status = NULL, response_headers = NULL, response_body = NULL
      WHERE idempotency_keys.expires_at <= $6
         OR (idempotency_keys.state = 'in_progress' AND idempotency_keys.locked_until <= $6
             AND idempotency_keys.body_hash = EXCLUDED.body_hash)
     RETURNING 1`,
    [...params(s), bodyHash, now, expiresAt, lockedUntil],
  );
  return r.rowCount > 0;
}

export async function readIdempotencyKey(db: Queryable, s: IdempotencyScope): Promise<IdempotencyRecord | undefined> {
  const r = await db.query<IdempotencyRecord>(
    `SELECT body_hash, state, response_status, response_headers, response_body, expires_at, locked_until
       FROM idempotency_keys WHERE ${WHERE}`,
    params(s),
  );
  return r.rows[0];
}

export async function completeIdempotencyKey(
  db: Queryable,
  s: IdempotencyScope,
  status: number,
  headers: Record<string, string>,
  body: string,
): Promise<void> {
  await db.query(
    `UPDATE idempotency_keys SET state = 'completed', response_status = $5, response_headers = $6, response_body = $7
       FROM (${NO_FLUSH_WAIT}) AS relaxed
      WHERE ${WHERE} AND state = 'in_progress'`,
    [...params(s), status, JSON.stringify(headers), body],
  );
}

/** A request that failed on our side (5xx) leaves nothing behind: the client may retry with the key. */
export async function releaseIdempotencyKey(db: Queryable, s: IdempotencyScope): Promise<void> {
  await db.query(`DELETE FROM idempotency_keys WHERE ${WHERE} AND state = 'in_progress'`, params(s));
}

export async function purgeExpiredIdempotencyKeys(db: Queryable, now: Date): Promise<number> {
  return (await db.query('DELETE FROM idempotency_keys WHERE expires_at <= $1', [now])).rowCount;
}
