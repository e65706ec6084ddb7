import type { Queryable } from '../db.js';

export interface ApplicationRow {
  id: string;
  account_id: string;
  name: string;
  scopes: string[];
  key_prefix: string;
  created_at: Date;
  rotated_at: Date | null;
  previous_key_expires_at: Date | null;
}

const COLUMNS = 'id, account_id, name, scopes, key_prefix, created_at, rotated_at, previous_key_expires_at';

export async function insertApplication(
  db: Queryable,
  a: { id: string; accountId: string; name: string; scopes: string[]; keyHash: Buffer; keyPrefix: string },
): Promise<ApplicationRow> {
  const r = await db.query<ApplicationRow>(
    `INSERT INTO applications (id, account_id, name, scopes, key_hash, key_prefix) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
    [a.id, a.accountId, a.name, a.scopes, a.keyHash, a.keyPrefix],
  );
  return r.rows[0]!;
}

/**
 * The live application a key belongs to: its current key, or its previous key within the grace
 * period; with whether its account was closed (a key created while the account was being closed
 * survives the closure's revocation, but acts as a reader only).
 */
export async function findApplicationByKeyHash(db: Queryable, hash: Buffer, now: Date): Promise<(ApplicationRow & { account_closed: boolean }) | undefined> {
  const r = await db.query<ApplicationRow & { account_closed: boolean }>(
    `SELECT ${COLUMNS.split(', ').map((c) => `ap.${c}`).join(', ')}, a.closed_at IS NOT NULL AS account_closed
       FROM applications ap JOIN accounts a ON a.id = ap.account_id
      WHERE ap.revoked_at IS NULL
        AND (ap.key_hash = $1 OR (ap.previous_key_hash = $1 AND ap.previous_key_expires_at > $2))`,
    [hash, now],
  );
  return r.rows[0];
}

export async function listApplications(
  db: Queryable,
  accountId: string,
  limit: number,
  startingAfter: string | undefined,
): Promise<ApplicationRow[]> {
  const r = await db.query<ApplicationRow>(
    `SELECT ${COLUMNS} FROM applications
      WHERE account_id = $1 AND revoked_at IS NULL AND ($2::text IS NULL OR id > $2)
      ORDER BY id LIMIT $3`,
    [accountId, startingAfter ?? null, limit],
  );
  return r.rows;
}

export async function getApplication(db: Queryable, accountId: string, id: string): Promise<ApplicationRow | undefined> {
  const r = await db.query<ApplicationRow>(
    `SELECT ${COLUMNS} FROM applications WHERE account_id = $1 AND id = $2 AND revoked_at IS NULL`,
    [accountId, id],
  );
  return r.rows[0];
}

export async function revokeApplication(db: Queryable, accountId: string, id: string, now: Date): Promise<boolean> {
  const r = await db.query(
    'UPDATE applications SET revoked_at = $3 WHERE account_id = $1 AND id = $2 AND revoked_at IS NULL',
    [accountId, id, now],
  );
  return r.rowCount > 0;
}

/** Replaces the key; the old one keeps working until `graceUntil` (a rotation must not cause an outage). */
export async function rotateApplicationKey(
  db: Queryable,
  accountId: string,
  id: string,
  newHash: Buffer,
  newPrefix: string,
  now: Date,
  graceUntil: Date,
): Promise<ApplicationRow | undefined> {
  const r = await db.query<ApplicationRow>(
    `UPDATE applications
        SET previous_key_hash = key_hash, previous_key_expires_at = $5,
            key_hash = $3, key_prefix = $4, rotated_at = $6
      WHERE account_id = $1 AND id = $2 AND revoked_at IS NULL
      RETURNING ${COLUMNS}`,
    [accountId, id, newHash, newPrefix, graceUntil, now],
  );
  return r.rows[0];
}

/** Every live key of the account stops working (account closed): the count revoked. */
export async function revokeAccountApplications(db: Queryable, accountId: string, now: Date): Promise<number> {
  const r = await db.query('UPDATE applications SET revoked_at = $2 WHERE account_id = $1 AND revoked_at IS NULL', [accountId, now]);
  return r.rowCount;
}
