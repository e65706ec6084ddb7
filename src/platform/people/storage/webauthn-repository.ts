import type { Queryable } from '../../../infra/storage/db.js';

/** A stored passkey: the public half of a credential and the last signature counter it reported. */
export interface PasskeyRow {
  id: string;
  user_id: string;
  credential_id: string;
  public_key: Uint8Array;
  counter: number;
  transports: string[];
  device_type: string | null;
  backed_up: boolean;
  name: string;
  created_at: Date;
  last_used_at: Date | null;
  /** Set by a password reset for a passkey added in the 24 hours before it: signs nobody in until confirmed. */
  suspended_at: Date | null;
}

const COLUMNS = 'id, user_id, credential_id, public_key, counter, transports, device_type, backed_up, name, created_at, last_used_at, suspended_at';

// bigint arrives as text from some drivers; a signature counter is a 32-bit number (WebAuthn L3 §6.1).
const toRow = (r: PasskeyRow): PasskeyRow => ({ ...r, counter: Number(r.counter) });

/** Stores a new passkey; undefined when the credential id is already registered (to anyone). */
export async function insertPasskey(
  db: Queryable,
  p: { id: string; userId: string; credentialId: string; publicKey: Uint8Array; counter: number; transports: string[]; deviceType: string; backedUp: boolean; name: string; at: Date },
): Promise<PasskeyRow | undefined> {
  const r = await db.query<PasskeyRow>(
    `INSERT INTO webauthn_credentials (id, user_id, credential_id, public_key, counter, transports, device_type, backed_up, name, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (credential_id) DO NOTHING RETURNING ${COLUMNS}`,
    [p.id, p.userId, p.credentialId, Buffer.from(p.publicKey), p.counter, p.transports, p.deviceType, p.backedUp, p.name, p.at],
  );
  return r.rows[0] && toRow(r.rows[0]);
}

export async function listUserPasskeys(db: Queryable, userId: string): Promise<PasskeyRow[]> {
  const r = await db.query<PasskeyRow>(`SELECT ${COLUMNS} FROM webauthn_credentials WHERE user_id = $1 ORDER BY created_at, id`, [userId]);
  return r.rows.map(toRow);
}

export async function findPasskeyByCredentialId(db: Queryable, credentialId: string): Promise<PasskeyRow | undefined> {
  const r = await db.query<PasskeyRow>(`SELECT ${COLUMNS} FROM webauthn_credentials WHERE credential_id = $1`, [credentialId]);
  return r.rows[0] && toRow(r.rows[0]);
}

/**
 * Records a verified assertion. The counter only moves forward (or stays 0 for an authenticator
 * without one): of two assertions racing with the same counter, one updates and the other finds
 * nothing, so a cloned authenticator cannot slip in between the check and the write.
 */
export async function recordPasskeyUse(db: Queryable, id: string, counter: number, backedUp: boolean, at: Date): Promise<boolean> {
  const r = await db.query(
    `UPDATE webauthn_credentials SET counter = $2, backed_up = $3, last_used_at = $4
      WHERE id = $1 AND (counter < $2 OR (counter = 0 AND $2 = 0))`,
    [id, counter, backedUp, at],
  );
  return r.rowCount > 0;
}

/** Removes one of the user's passkeys; answers it (its name goes into the notice), or undefined. */
export async function deleteUserPasskey(db: Queryable, userId: string, id: string): Promise<PasskeyRow | undefined> {
  const r = await db.query<PasskeyRow>(`DELETE FROM webauthn_credentials WHERE id = $1 AND user_id = $2 RETURNING ${COLUMNS}`, [id, userId]);
  return r.rows[0] && toRow(r.rows[0]);
}

export type ChallengePurpose = 'registration' | 'authentication' | 'login_challenge' | 'step_up';

export interface ChallengeRow {
  purpose: ChallengePurpose;
  user_id: string | null;
  session_id: string | null;
  login_token_hash: Uint8Array | null;
  expires_at: Date;
}

/** Stores a challenge (by its hash) and forgets the expired ones: the table holds only live ceremonies. */
export async function insertChallenge(
  db: Queryable,
  c: { hash: Buffer; purpose: ChallengePurpose; userId?: string | null; sessionId?: string | null; loginTokenHash?: Buffer | null; at: Date; expiresAt: Date },
): Promise<void> {
  await db.query('DELETE FROM webauthn_challenges WHERE expires_at <= $1', [c.at]);
  await db.query(
    `INSERT INTO webauthn_challenges (challenge_hash, purpose, user_id, session_id, login_token_hash, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [c.hash, c.purpose, c.userId ?? null, c.sessionId ?? null, c.loginTokenHash ?? null, c.at, c.expiresAt],
  );
}

/**
 * Takes the challenge if it is live and was issued for one of `purposes`: the row is deleted by the
 * same statement that reads it, so of two verifications with one challenge only one gets it.
 */
export async function consumeChallenge(db: Queryable, hash: Buffer, purposes: readonly ChallengePurpose[], now: Date): Promise<ChallengeRow | undefined> {
  const r = await db.query<ChallengeRow>(
    `DELETE FROM webauthn_challenges WHERE challenge_hash = $1 AND purpose = ANY($2::text[])
     RETURNING purpose, user_id, session_id, login_token_hash, expires_at`,
    [hash, [...purposes]],
  );
  const row = r.rows[0];
  return row && row.expires_at > now ? row : undefined;
}
