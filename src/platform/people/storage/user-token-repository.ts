import type { Queryable } from '../../../infra/storage/db.js';

export type UserTokenPurpose = 'verify_email' | 'reset_password' | 'login_challenge';

export interface UserTokenRow {
  user_id: string;
  purpose: UserTokenPurpose;
  account_id: string | null;
  data: Record<string, unknown>;
  attempts: number;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

const COLUMNS = 'user_id, purpose, account_id, data, attempts, created_at, expires_at, used_at';

export async function insertUserToken(
  db: Queryable,
  t: { tokenHash: Buffer; userId: string; purpose: UserTokenPurpose; accountId?: string | null; data?: Record<string, unknown>; at: Date; expiresAt: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO user_tokens (token_hash, user_id, purpose, account_id, data, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [t.tokenHash, t.userId, t.purpose, t.accountId ?? null, JSON.stringify(t.data ?? {}), t.at, t.expiresAt],
  );
}

/** The token if it is unused and unexpired, locked for the caller's transaction. */
export async function lockLiveUserToken(db: Queryable, tokenHash: Buffer, purpose: UserTokenPurpose, now: Date): Promise<UserTokenRow | undefined> {
  const r = await db.query<UserTokenRow>(
    `SELECT ${COLUMNS} FROM user_tokens WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3 FOR UPDATE`,
    [tokenHash, purpose, now],
  );
  return r.rows[0];
}

/** Spends the token: true when this call spent it (a second use of the same link fails). */
export async function useUserToken(db: Queryable, tokenHash: Buffer, at: Date): Promise<boolean> {
  const r = await db.query('UPDATE user_tokens SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL', [tokenHash, at]);
  return r.rowCount > 0;
}

/** A wrong answer to a login challenge: counted, so a challenge cannot be guessed at for long. */
export async function countUserTokenAttempt(db: Queryable, tokenHash: Buffer): Promise<number> {
  const r = await db.query<{ attempts: number }>('UPDATE user_tokens SET attempts = attempts + 1 WHERE token_hash = $1 RETURNING attempts', [tokenHash]);
  return r.rows[0]?.attempts ?? 0;
}

/** Older links of the same kind stop working when a new one is sent. */
export async function expireUserTokens(db: Queryable, userId: string, purpose: UserTokenPurpose, at: Date): Promise<void> {
  await db.query('UPDATE user_tokens SET used_at = $3 WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL', [userId, purpose, at]);
}
