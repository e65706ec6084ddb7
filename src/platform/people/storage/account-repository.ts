import type { Queryable } from '../../../infra/storage/db.js';

export async function insertAccount(db: Queryable, a: { id: string; name: string; environment: string; notificationEmail: string | null; at: Date }): Promise<void> {
  await db.query(
    'INSERT INTO accounts (id, name, environment, notification_email, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)',
    [a.id, a.name, a.environment, a.notificationEmail, a.at],
  );
}

export interface AccountFlags {
  closed_at: Date | null;
  require_sso: boolean;
}

export async function getAccountFlags(db: Queryable, id: string): Promise<AccountFlags | undefined> {
  const r = await db.query<AccountFlags>('SELECT closed_at, require_sso FROM accounts WHERE id = $1', [id]);
  return r.rows[0];
}

/** Closes the account once, locked against a concurrent closure: the closing time, or null when it was already closed. */
export async function markAccountClosed(db: Queryable, id: string, reason: string | null, at: Date): Promise<Date | null> {
  const r = await db.query<{ closed_at: Date }>(
    'UPDATE accounts SET closed_at = $2, closed_reason = $3, updated_at = $2 WHERE id = $1 AND closed_at IS NULL RETURNING closed_at',
    [id, at, reason],
  );
  return r.rows[0]?.closed_at ?? null;
}

export async function getAccountName(db: Queryable, id: string): Promise<string | undefined> {
  const r = await db.query<{ name: string }>('SELECT name FROM accounts WHERE id = $1', [id]);
  return r.rows[0]?.name;
}
