import type { Queryable } from '../../../infra/storage/db.js';

/** A browser that completed a sign-in: only the token's SHA-256 is stored. */
export async function insertDeviceToken(db: Queryable, t: { tokenHash: Buffer; userId: string; at: Date; expiresAt: Date }): Promise<void> {
  await db.query('INSERT INTO device_tokens (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)', [t.tokenHash, t.userId, t.at, t.expiresAt]);
}

/** The presented token is spent when a sign-in answers a new one; only its own user's. */
export async function deleteDeviceToken(db: Queryable, tokenHash: Buffer, userId: string): Promise<void> {
  await db.query('DELETE FROM device_tokens WHERE token_hash = $1 AND user_id = $2', [tokenHash, userId]);
}

export async function deleteExpiredDeviceTokens(db: Queryable, userId: string, now: Date): Promise<void> {
  await db.query('DELETE FROM device_tokens WHERE user_id = $1 AND expires_at <= $2', [userId, now]);
}

export type DeviceTry = { outcome: 'counted' } | { outcome: 'locked'; until: Date } | { outcome: 'unknown' };

/**
 * Counts one try of a live token of the user with this e-mail key, before the secret is checked,
 * in one statement (the row lock orders parallel tries): at `max` tries inside the window starting
 * at the first counted one, the token is locked until that window ends.
 */
export async function countDeviceTry(db: Queryable, tokenHash: Buffer, emailKey: string, now: Date, windowMs: number, max: number): Promise<DeviceTry> {
  const windowStart = new Date(now.getTime() - windowMs);
  const counted = await db.query(
    `UPDATE device_tokens d SET
       failures = CASE WHEN d.first_failure_at IS NULL OR d.first_failure_at <= $4 THEN 1 ELSE d.failures + 1 END,
       first_failure_at = CASE WHEN d.first_failure_at IS NULL OR d.first_failure_at <= $4 THEN $3 ELSE d.first_failure_at END
     FROM users u
     WHERE d.token_hash = $1 AND u.id = d.user_id AND u.email_key = $2 AND d.expires_at > $3
       AND (d.first_failure_at IS NULL OR d.first_failure_at <= $4 OR d.failures < $5)
     RETURNING d.failures`,
    [tokenHash, emailKey, now, windowStart, max],
  );
  if (counted.rowCount > 0) return { outcome: 'counted' };
  const held = await db.query<{ first_failure_at: Date }>(
    `SELECT d.first_failure_at FROM device_tokens d JOIN users u ON u.id = d.user_id
     WHERE d.token_hash = $1 AND u.email_key = $2 AND d.expires_at > $3 AND d.first_failure_at IS NOT NULL`,
    [tokenHash, emailKey, now],
  );
  const first = held.rows[0]?.first_failure_at;
  return first ? { outcome: 'locked', until: new Date(first.getTime() + windowMs) } : { outcome: 'unknown' };
}

/** The try turned out right (or was never checked): it no longer counts. */
export async function uncountDeviceTry(db: Queryable, tokenHash: Buffer): Promise<void> {
  await db.query('UPDATE device_tokens SET failures = greatest(failures - 1, 0) WHERE token_hash = $1', [tokenHash]);
}

/** A password reset forgets every browser that signed in before it: an intruder's included. */
export async function deleteUserDeviceTokens(db: Queryable, userId: string): Promise<void> {
  await db.query('DELETE FROM device_tokens WHERE user_id = $1', [userId]);
}
