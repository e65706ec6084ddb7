import type { Queryable } from '../../../infra/storage/db.js';

/**
 * Spends a single sign-on state: true when this call recorded it, false when it was already used
 * (the primary key decides, across processes). Expired rows are purged on the way.
 */
export async function claimSsoState(db: Queryable, s: { id: string; provider: string; at: Date; expiresAt: Date }): Promise<boolean> {
  await db.query('DELETE FROM sso_states WHERE expires_at < $1', [s.at]);
  const r = await db.query(
    'INSERT INTO sso_states (id, provider, used_at, expires_at) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING',
    [s.id, s.provider, s.at, s.expiresAt],
  );
  return r.rowCount > 0;
}

export interface IdentityRow {
  provider: string;
  subject: string;
  user_id: string;
  email: string | null;
  created_at: Date;
}

export async function findIdentity(db: Queryable, provider: string, subject: string): Promise<IdentityRow | undefined> {
  const r = await db.query<IdentityRow>(
    'SELECT provider, subject, user_id, email, created_at FROM user_identities WHERE provider = $1 AND subject = $2',
    [provider, subject],
  );
  return r.rows[0];
}

/** Links a provider's subject to a user; false when that subject is already linked (to anyone). */
export async function insertIdentity(db: Queryable, i: { provider: string; subject: string; userId: string; email: string | null; at: Date }): Promise<boolean> {
  const r = await db.query(
    `INSERT INTO user_identities (provider, subject, user_id, email, created_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (provider, subject) DO NOTHING`,
    [i.provider, i.subject, i.userId, i.email, i.at],
  );
  return r.rowCount > 0;
}
