import type { Queryable } from '../db.js';

export interface UserRow {
  id: string;
  email: string;
  name: string;
  password_hash: string | null;
  email_verified_at: Date | null;
  totp_secret_blob: string | null;
  totp_enabled_at: Date | null;
  totp_last_step: number | null;
  /** Set by a password reset when TOTP was turned on in the 24 hours before it: not asked, not accepted, until confirmed. */
  totp_suspended_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, email, name, password_hash, email_verified_at, totp_secret_blob, totp_enabled_at, totp_last_step, totp_suspended_at, created_at, updated_at';

/** The one spelling of an e-mail we compare (RFC 5321 lets the local part be case-sensitive; no provider is). */
/** TOTP is on and not suspended by a password reset: it is asked at sign-in and its codes are accepted. */
export const totpActive = (u: Pick<UserRow, 'totp_enabled_at' | 'totp_suspended_at'>): boolean => u.totp_enabled_at !== null && u.totp_suspended_at === null;

export const emailKey = (email: string): string => email.trim().toLowerCase();

/** Inserts the user, or returns undefined when the e-mail is taken (the unique key decides, across processes). */
export async function insertUser(
  db: Queryable,
  u: { id: string; email: string; name: string; passwordHash: string | null; verifiedAt: Date | null; at: Date },
): Promise<UserRow | undefined> {
  const r = await db.query<UserRow>(
    `INSERT INTO users (id, email, email_key, name, password_hash, email_verified_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7) ON CONFLICT (email_key) DO NOTHING RETURNING ${COLUMNS}`,
    [u.id, u.email.trim(), emailKey(u.email), u.name, u.passwordHash, u.verifiedAt, u.at],
  );
  return r.rows[0];
}

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
  const r = await db.query<UserRow>(`SELECT ${COLUMNS} FROM users WHERE email_key = $1`, [emailKey(email)]);
  return r.rows[0];
}

export async function getUser(db: Queryable, id: string, forUpdate = false): Promise<UserRow | undefined> {
  const r = await db.query<UserRow>(`SELECT ${COLUMNS} FROM users WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [id]);
  return r.rows[0];
}

export async function setPasswordHash(db: Queryable, id: string, passwordHash: string, at: Date): Promise<void> {
  await db.query('UPDATE users SET password_hash = $2, updated_at = $3 WHERE id = $1', [id, passwordHash, at]);
}

/** Replaces the hash only if it is still the one that was just verified (two sign-ins at once upgrade it once). */
export async function upgradePasswordHash(db: Queryable, id: string, oldHash: string, newHash: string, at: Date): Promise<void> {
  await db.query('UPDATE users SET password_hash = $3, updated_at = $4 WHERE id = $1 AND password_hash = $2', [id, oldHash, newHash, at]);
}

export async function markEmailVerified(db: Queryable, id: string, at: Date): Promise<void> {
  await db.query('UPDATE users SET email_verified_at = COALESCE(email_verified_at, $2), updated_at = $2 WHERE id = $1', [id, at]);
}

export async function updateUserName(db: Queryable, id: string, name: string, at: Date): Promise<void> {
  await db.query('UPDATE users SET name = $2, updated_at = $3 WHERE id = $1', [id, name, at]);
}

/** A pending (not yet enabled) TOTP secret, or the removal of the second factor (null). */
export async function setTotpSecret(db: Queryable, id: string, blob: string | null, at: Date): Promise<void> {
  await db.query(
    'UPDATE users SET totp_secret_blob = $2, totp_enabled_at = NULL, totp_last_step = NULL, totp_suspended_at = NULL, updated_at = $3 WHERE id = $1',
    [id, blob, at],
  );
}

export async function enableTotp(db: Queryable, id: string, step: number, at: Date): Promise<void> {
  await db.query('UPDATE users SET totp_enabled_at = $3, totp_last_step = $2, updated_at = $3 WHERE id = $1', [id, step, at]);
}

/**
 * Records `step` as used if it is newer than the last one used: true when this call took it. Two
 * requests with the same code race on this one row; only one wins (RFC 6238 section 5.2).
 */
export async function claimTotpStep(db: Queryable, id: string, step: number): Promise<boolean> {
  const r = await db.query(
    'UPDATE users SET totp_last_step = $2 WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2)',
    [id, step],
  );
  return r.rowCount > 0;
}

export async function replaceRecoveryCodes(db: Queryable, userId: string, hashes: Buffer[], at: Date): Promise<void> {
  await db.query('DELETE FROM recovery_codes WHERE user_id = $1', [userId]);
  await db.query('INSERT INTO recovery_codes (user_id, code_hash, created_at) SELECT $1, h, $3 FROM unnest($2::bytea[]) AS h', [userId, hashes, at]);
}

/** Spends a recovery code: true when this call spent it. */
export async function useRecoveryCode(db: Queryable, userId: string, hash: Buffer, at: Date): Promise<boolean> {
  const r = await db.query('UPDATE recovery_codes SET used_at = $3 WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL', [userId, hash, at]);
  return r.rowCount > 0;
}

export async function countRecoveryCodes(db: Queryable, userId: string): Promise<number> {
  const r = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM recovery_codes WHERE user_id = $1 AND used_at IS NULL', [userId]);
  return r.rows[0]?.n ?? 0;
}

export async function deleteRecoveryCodes(db: Queryable, userId: string): Promise<void> {
  await db.query('DELETE FROM recovery_codes WHERE user_id = $1', [userId]);
}
