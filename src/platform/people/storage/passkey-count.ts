import type { Queryable } from '../../../infra/storage/db.js';

/** How many usable (not suspended) passkeys a user has: one or more makes a passkey a second factor at password sign-in. */
export async function countPasskeys(db: Queryable, userId: string): Promise<number> {
  const r = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM webauthn_credentials WHERE user_id = $1 AND suspended_at IS NULL', [userId]);
  return r.rows[0]?.n ?? 0;
}
