import type { Queryable } from '../db.js';

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
