import type { Queryable } from '../../../infra/storage/db.js';
import { emailKey } from '../../../infra/storage/repositories/user-repository.js';

export interface InviteRow {
  id: string;
  account_id: string;
  email: string;
  role: string;
  invited_by: string;
  created_at: Date;
  expires_at: Date;
  accepted_at: Date | null;
  accepted_by: string | null;
  revoked_at: Date | null;
}

// Never the token's hash: a caller has no use for it, and a row printed in a log stays harmless.
const COLUMNS = 'id, account_id, email, role, invited_by, created_at, expires_at, accepted_at, accepted_by, revoked_at';

export async function insertInvite(
  db: Queryable,
  i: { id: string; accountId: string; email: string; role: string; tokenHash: Buffer; invitedBy: string; at: Date; expiresAt: Date },
): Promise<InviteRow> {
  const r = await db.query<InviteRow>(
    `INSERT INTO invites (id, account_id, email, email_key, role, token_hash, invited_by, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${COLUMNS}`,
    [i.id, i.accountId, i.email.trim(), emailKey(i.email), i.role, i.tokenHash, i.invitedBy, i.at, i.expiresAt],
  );
  return r.rows[0]!;
}

/** Pending invites of the account (neither accepted, revoked nor expired), newest first. */
export async function listPendingInvites(db: Queryable, accountId: string, now: Date, limit: number, startingAfter?: string): Promise<InviteRow[]> {
  const r = await db.query<InviteRow>(
    `SELECT ${COLUMNS} FROM invites
      WHERE account_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $2
        AND ($4::text IS NULL OR (created_at, id) < (SELECT created_at, id FROM invites WHERE account_id = $1 AND id = $4))
      ORDER BY created_at DESC, id DESC LIMIT $3`,
    [accountId, now, limit, startingAfter ?? null],
  );
  return r.rows;
}

/** Revokes a pending invite of the account: true when this call revoked it. */
export async function revokeInvite(db: Queryable, accountId: string, id: string, now: Date): Promise<boolean> {
  const r = await db.query(
    'UPDATE invites SET revoked_at = $3 WHERE account_id = $1 AND id = $2 AND accepted_at IS NULL AND revoked_at IS NULL',
    [accountId, id, now],
  );
  return r.rowCount > 0;
}

export async function getInvite(db: Queryable, accountId: string, id: string): Promise<InviteRow | undefined> {
  const r = await db.query<InviteRow>(`SELECT ${COLUMNS} FROM invites WHERE account_id = $1 AND id = $2`, [accountId, id]);
  return r.rows[0];
}

/**
 * The live invite a token opens, locked: two accepts of one token are decided one after the other,
 * and only the first finds it unused.
 */
export async function lockLiveInvite(db: Queryable, tokenHash: Buffer, now: Date): Promise<(InviteRow & { email_key: string }) | undefined> {
  const r = await db.query<InviteRow & { email_key: string }>(
    `SELECT ${COLUMNS}, email_key FROM invites
      WHERE token_hash = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $2 FOR UPDATE`,
    [tokenHash, now],
  );
  return r.rows[0];
}

export async function markInviteAccepted(db: Queryable, id: string, userId: string, now: Date): Promise<void> {
  await db.query('UPDATE invites SET accepted_at = $3, accepted_by = $2 WHERE id = $1', [id, userId, now]);
}

/** Pending invites of the account for this e-mail stop working (a new invite replaces them), or all of them (account closed). */
export async function revokePendingInvites(db: Queryable, accountId: string, now: Date, email?: string): Promise<number> {
  const r = await db.query(
    'UPDATE invites SET revoked_at = $2 WHERE account_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND ($3::text IS NULL OR email_key = $3)',
    [accountId, now, email === undefined ? null : emailKey(email)],
  );
  return r.rowCount;
}

export interface InviteWindow {
  count: number;
  /** The oldest invite of the window: when it leaves the window, one more fits. */
  oldest: Date | null;
}

/**
 * Invites made since `since` by the account and to the address (any account), revoked ones
 * included: revoking does not give a mail back. The account's invites are
 * serialized first (a transaction-scoped advisory lock), so two at once never both pass the count.
 */
export async function lockInviteWindows(tx: Queryable, accountId: string, emailKeyValue: string, since: Date): Promise<{ account: InviteWindow; address: InviteWindow }> {
  await tx.query("SELECT pg_advisory_xact_lock(hashtext('invites:' || $1))", [accountId]);
  const r = await tx.query<{ a_count: number; a_oldest: Date | null; e_count: number; e_oldest: Date | null }>(
    `SELECT (SELECT count(*)::int FROM invites WHERE account_id = $1 AND created_at > $3) AS a_count,
            (SELECT min(created_at) FROM invites WHERE account_id = $1 AND created_at > $3) AS a_oldest,
            (SELECT count(*)::int FROM invites WHERE email_key = $2 AND created_at > $3) AS e_count,
            (SELECT min(created_at) FROM invites WHERE email_key = $2 AND created_at > $3) AS e_oldest`,
    [accountId, emailKeyValue, since],
  );
  const row = r.rows[0]!;
  const at = (d: Date | null) => (d === null ? null : new Date(d));
  return { account: { count: Number(row.a_count), oldest: at(row.a_oldest) }, address: { count: Number(row.e_count), oldest: at(row.e_oldest) } };
}
