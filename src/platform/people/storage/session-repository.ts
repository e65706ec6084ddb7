import type { Queryable } from '../../../infra/storage/db.js';

export interface SessionRow {
  id: string;
  user_id: string;
  account_id: string;
  methods: string[];
  authenticated_at: Date;
  created_at: Date;
  last_used_at: Date;
  expires_at: Date;
  ip: string | null;
  user_agent: string | null;
  revoked_at: Date | null;
  revoked_reason: string | null;
}

const COLUMNS = 'id, user_id, account_id, methods, authenticated_at, created_at, last_used_at, expires_at, ip, user_agent, revoked_at, revoked_reason';

export async function insertSession(
  db: Queryable,
  s: { id: string; userId: string; accountId: string; tokenHash: Buffer; methods: string[]; at: Date; expiresAt: Date; ip: string | null; userAgent: string | null },
): Promise<SessionRow> {
  const r = await db.query<SessionRow>(
    `INSERT INTO sessions (id, user_id, account_id, token_hash, methods, authenticated_at, created_at, last_used_at, expires_at, ip, user_agent)
     VALUES ($1, $2, $3, $4, $5, $6, $6, $6, $7, $8, $9) RETURNING ${COLUMNS}`,
    [s.id, s.userId, s.accountId, s.tokenHash, s.methods, s.at, s.expiresAt, s.ip, s.userAgent?.slice(0, 300) ?? null],
  );
  return r.rows[0]!;
}

/**
 * The live session a token opens: its current token, or the one it replaced within the grace.
 * Idle and absolute lifetimes are checked by the caller (it knows the idle limit).
 */
export async function findSessionByTokenHash(db: Queryable, hash: Buffer, now: Date): Promise<SessionRow | undefined> {
  const r = await db.query<SessionRow>(
    `SELECT ${COLUMNS} FROM sessions
      WHERE revoked_at IS NULL AND expires_at > $2
        AND (token_hash = $1 OR (previous_token_hash = $1 AND previous_token_until > $2))`,
    [hash, now],
  );
  return r.rows[0];
}

export async function getSession(db: Queryable, id: string, forUpdate = false): Promise<SessionRow | undefined> {
  const r = await db.query<SessionRow>(`SELECT ${COLUMNS} FROM sessions WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [id]);
  return r.rows[0];
}

/** Records use at most once a minute per session: a page of the dashboard is a dozen requests. */
export async function touchSession(db: Queryable, id: string, now: Date): Promise<void> {
  await db.query("UPDATE sessions SET last_used_at = $2 WHERE id = $1 AND last_used_at < $2::timestamptz - interval '60 seconds'", [id, now]);
}

/** A refresh: a new session token; the old one keeps working until `graceUntil`. */
export async function replaceSessionToken(db: Queryable, id: string, tokenHash: Buffer, now: Date, graceUntil: Date): Promise<void> {
  await db.query(
    `UPDATE sessions SET previous_token_hash = token_hash, previous_token_until = $4, token_hash = $2, last_used_at = $3
      WHERE id = $1`,
    [id, tokenHash, now, graceUntil],
  );
}

/** Step-up or a second factor completed: the session counts as freshly authenticated. */
export async function markAuthenticated(db: Queryable, id: string, method: string, now: Date): Promise<void> {
  await db.query(
    `UPDATE sessions SET authenticated_at = $3, last_used_at = $3,
            methods = CASE WHEN $2 = ANY(methods) THEN methods ELSE array_append(methods, $2) END
      WHERE id = $1`,
    [id, method, now],
  );
}

export async function revokeSession(db: Queryable, id: string, reason: string, now: Date): Promise<boolean> {
  const r = await db.query('UPDATE sessions SET revoked_at = $3, revoked_reason = $2 WHERE id = $1 AND revoked_at IS NULL', [id, reason, now]);
  return r.rowCount > 0;
}

/** Every live session of a user (password reset), or of a user but one (sign out elsewhere). */
export async function revokeUserSessions(db: Queryable, userId: string, reason: string, now: Date, exceptId?: string): Promise<number> {
  const r = await db.query(
    'UPDATE sessions SET revoked_at = $3, revoked_reason = $2 WHERE user_id = $1 AND revoked_at IS NULL AND ($4::text IS NULL OR id <> $4)',
    [userId, reason, now, exceptId ?? null],
  );
  return r.rowCount;
}

/** Every live session acting on an account (account closed, member removed: `userId`). */
export async function revokeAccountSessions(db: Queryable, accountId: string, reason: string, now: Date, userId?: string): Promise<number> {
  const r = await db.query(
    'UPDATE sessions SET revoked_at = $3, revoked_reason = $2 WHERE account_id = $1 AND revoked_at IS NULL AND ($4::text IS NULL OR user_id = $4)',
    [accountId, reason, now, userId ?? null],
  );
  return r.rowCount;
}

/**
 * Revokes a user's live sessions beyond the `keep` most recently used (`reason` session_limit), in the
 * transaction that opens a new one; answers how many it ended.
 */
export async function revokeSessionsBeyond(db: Queryable, userId: string, keep: number, now: Date): Promise<number> {
  const r = await db.query(
    `UPDATE sessions SET revoked_at = $2, revoked_reason = 'session_limit'
      WHERE id IN (SELECT id FROM sessions WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > $2
                    ORDER BY last_used_at DESC, created_at DESC, id DESC OFFSET $3)`,
    [userId, now, keep],
  );
  return r.rowCount ?? 0;
}

export async function listUserSessions(db: Queryable, userId: string, now: Date): Promise<SessionRow[]> {
  const r = await db.query<SessionRow>(
    `SELECT ${COLUMNS} FROM sessions WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > $2 ORDER BY created_at DESC LIMIT 100`,
    [userId, now],
  );
  return r.rows;
}

export async function insertRefreshToken(db: Queryable, sessionId: string, tokenHash: Buffer, at: Date): Promise<void> {
  await db.query('INSERT INTO refresh_tokens (token_hash, session_id, created_at) VALUES ($1, $2, $3)', [tokenHash, sessionId, at]);
}

export interface RefreshRow {
  session_id: string;
  used_at: Date | null;
}

/** Locks the refresh token's row: two refreshes with one token are decided one after the other. */
export async function lockRefreshToken(db: Queryable, tokenHash: Buffer): Promise<RefreshRow | undefined> {
  const r = await db.query<RefreshRow>('SELECT session_id, used_at FROM refresh_tokens WHERE token_hash = $1 FOR UPDATE', [tokenHash]);
  return r.rows[0];
}

export async function markRefreshTokenUsed(db: Queryable, tokenHash: Buffer, at: Date): Promise<void> {
  await db.query('UPDATE refresh_tokens SET used_at = COALESCE(used_at, $2) WHERE token_hash = $1', [tokenHash, at]);
}

export interface SessionAuthRow extends SessionRow {
  role: string | null;
  email_verified_at: Date | null;
  account_closed_at: Date | null;
}

/** The session a token opens, with what a request needs to act: the member's role, the e-mail's state, the account's. */
export async function findSessionAuth(db: Queryable, hash: Buffer, now: Date): Promise<SessionAuthRow | undefined> {
  const r = await db.query<SessionAuthRow>(
    `SELECT ${COLUMNS.split(', ').map((c) => `s.${c}`).join(', ')}, m.role, u.email_verified_at, a.closed_at AS account_closed_at
       FROM sessions s
       JOIN users u ON u.id = s.user_id
       JOIN accounts a ON a.id = s.account_id
       LEFT JOIN memberships m ON m.account_id = s.account_id AND m.user_id = s.user_id
      WHERE s.revoked_at IS NULL AND s.expires_at > $2
        AND (s.token_hash = $1 OR (s.previous_token_hash = $1 AND s.previous_token_until > $2))`,
    [hash, now],
  );
  return r.rows[0];
}

export async function setAuthenticatedAt(db: Queryable, id: string, at: Date): Promise<void> {
  await db.query('UPDATE sessions SET authenticated_at = $2 WHERE id = $1', [id, at]);
}
