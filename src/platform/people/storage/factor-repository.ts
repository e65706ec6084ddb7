import type { Queryable } from '../../../infra/storage/db.js';

/**
 * A user's sign-in factors as one list: the TOTP secret and each passkey, with the
 * date it was added and whether a password reset suspended it. Recovery codes ride with TOTP. A
 * single sign-on identity (`sso`, named by its provider) appears only among what a reset removed.
 */
export interface FactorRow {
  id: string;
  kind: 'totp' | 'passkey' | 'sso';
  name: string;
  created_at: Date;
  suspended_at: Date | null;
}

/** The id a TOTP secret is listed under: a user has one at most. */
export const TOTP_FACTOR_ID = 'totp';

export async function listUserFactors(db: Queryable, userId: string): Promise<FactorRow[]> {
  const r = await db.query<FactorRow>(
    `SELECT $2::text AS id, 'totp' AS kind, 'TOTP' AS name, totp_enabled_at AS created_at, totp_suspended_at AS suspended_at
       FROM users WHERE id = $1 AND totp_enabled_at IS NOT NULL
     UNION ALL
     SELECT id, 'passkey', name, created_at, suspended_at FROM webauthn_credentials WHERE user_id = $1
     ORDER BY created_at, id`,
    [userId, TOTP_FACTOR_ID],
  );
  return r.rows;
}

/** Suspends every factor added after `since` (a reset's last 24 hours); answers the ones it suspended. */
export async function suspendFactorsAddedSince(db: Queryable, userId: string, since: Date, at: Date): Promise<FactorRow[]> {
  const totp = await db.query<FactorRow>(
    `UPDATE users SET totp_suspended_at = $3 WHERE id = $1 AND totp_enabled_at > $2 AND totp_suspended_at IS NULL
     RETURNING $4::text AS id, 'totp' AS kind, 'TOTP' AS name, totp_enabled_at AS created_at, totp_suspended_at AS suspended_at`,
    [userId, since, at, TOTP_FACTOR_ID],
  );
  const keys = await db.query<FactorRow>(
    `UPDATE webauthn_credentials SET suspended_at = $3 WHERE user_id = $1 AND created_at > $2 AND suspended_at IS NULL
     RETURNING id, 'passkey' AS kind, name, created_at, suspended_at`,
    [userId, since, at],
  );
  return [...totp.rows, ...keys.rows];
}

/**
 * Removes every factor (TOTP secret, pending or on; recovery codes; passkeys; single sign-on
 * identities, which a provider that does not confirm e-mails could link to an unconfirmed user): an
 * e-mail verified by a password reset proves nothing added before it was the address owner's.
 * Answers what was removed.
 */
export async function removeAllFactors(db: Queryable, userId: string, at: Date): Promise<FactorRow[]> {
  const before = await listUserFactors(db, userId);
  await db.query(
    'UPDATE users SET totp_secret_blob = NULL, totp_enabled_at = NULL, totp_last_step = NULL, totp_suspended_at = NULL, updated_at = $2 WHERE id = $1',
    [userId, at],
  );
  await db.query('DELETE FROM recovery_codes WHERE user_id = $1', [userId]);
  await db.query('DELETE FROM webauthn_credentials WHERE user_id = $1', [userId]);
  const identities = await db.query<FactorRow>(
    `DELETE FROM user_identities WHERE user_id = $1
     RETURNING 'sso:' || provider AS id, 'sso' AS kind, provider AS name, created_at, NULL::timestamptz AS suspended_at`,
    [userId],
  );
  return [...before, ...identities.rows];
}

/** Lifts a reset's suspension: true when the factor was suspended and is usable now. */
export async function confirmFactor(db: Queryable, userId: string, id: string): Promise<boolean> {
  const r = id === TOTP_FACTOR_ID
    ? await db.query('UPDATE users SET totp_suspended_at = NULL WHERE id = $1 AND totp_suspended_at IS NOT NULL', [userId])
    : await db.query('UPDATE webauthn_credentials SET suspended_at = NULL WHERE id = $2 AND user_id = $1 AND suspended_at IS NOT NULL', [userId, id]);
  return r.rowCount > 0;
}
