import type { Queryable } from '../../../infra/storage/db.js';

export interface MembershipRow {
  account_id: string;
  user_id: string;
  role: string;
  created_at: Date;
  updated_at: Date;
}

export interface MemberRow extends MembershipRow {
  email: string;
  name: string;
  totp_enabled_at: Date | null;
}

const COLUMNS = 'account_id, user_id, role, created_at, updated_at';

export async function insertMembership(db: Queryable, m: { accountId: string; userId: string; role: string; at: Date }): Promise<boolean> {
  const r = await db.query(
    `INSERT INTO memberships (account_id, user_id, role, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)
     ON CONFLICT (account_id, user_id) DO NOTHING`,
    [m.accountId, m.userId, m.role, m.at],
  );
  return r.rowCount > 0;
}

export async function getMembership(db: Queryable, accountId: string, userId: string, forUpdate = false): Promise<MembershipRow | undefined> {
  const r = await db.query<MembershipRow>(
    `SELECT ${COLUMNS} FROM memberships WHERE account_id = $1 AND user_id = $2${forUpdate ? ' FOR UPDATE' : ''}`,
    [accountId, userId],
  );
  return r.rows[0];
}

/** The user's accounts, oldest membership first (the default account of a sign-in). */
export async function listUserMemberships(db: Queryable, userId: string): Promise<(MembershipRow & { account_name: string })[]> {
  const r = await db.query<MembershipRow & { account_name: string }>(
    `SELECT m.account_id, m.user_id, m.role, m.created_at, m.updated_at, a.name AS account_name
       FROM memberships m JOIN accounts a ON a.id = m.account_id
      WHERE m.user_id = $1 ORDER BY m.created_at, m.account_id`,
    [userId],
  );
  return r.rows;
}

/** The account's members by user id (a page), or the one member `onlyUserId`. */
export async function listMembers(db: Queryable, accountId: string, limit: number, startingAfter?: string, onlyUserId?: string): Promise<MemberRow[]> {
  const r = await db.query<MemberRow>(
    `SELECT m.account_id, m.user_id, m.role, m.created_at, m.updated_at, u.email, u.name, u.totp_enabled_at
       FROM memberships m JOIN users u ON u.id = m.user_id
      WHERE m.account_id = $1 AND ($2::text IS NULL OR m.user_id > $2) AND ($4::text IS NULL OR m.user_id = $4)
      ORDER BY m.user_id LIMIT $3`,
    [accountId, startingAfter ?? null, limit, onlyUserId ?? null],
  );
  return r.rows;
}

export async function setMembershipRole(db: Queryable, accountId: string, userId: string, role: string, at: Date): Promise<void> {
  await db.query('UPDATE memberships SET role = $3, updated_at = $4 WHERE account_id = $1 AND user_id = $2', [accountId, userId, role, at]);
}

export async function deleteMembership(db: Queryable, accountId: string, userId: string): Promise<boolean> {
  const r = await db.query('DELETE FROM memberships WHERE account_id = $1 AND user_id = $2', [accountId, userId]);
  return r.rowCount > 0;
}

/**
 * Locks the account's owner rows and counts them: a demotion or removal checks "not the last owner"
 * under this lock, so two admins demoting the last two owners at once cannot both succeed.
 */
export async function lockOwners(db: Queryable, accountId: string): Promise<string[]> {
  const r = await db.query<{ user_id: string }>(
    "SELECT user_id FROM memberships WHERE account_id = $1 AND role = 'owner' ORDER BY user_id FOR UPDATE",
    [accountId],
  );
  return r.rows.map((x) => x.user_id);
}
