import type { Queryable } from '../../../infra/storage/db.js';
import { randomBase62 } from '../../../kernel/ids.js';

export type MailState = 'pending' | 'sent' | 'captured' | 'no_recipient' | 'failed';

export interface MailRow {
  id: string;
  account_id: string;
  to_address: string | null;
  subject: string;
  body_text: string;
  /** The body sealed by the secret box (aad `mail:<id>:body`) when it carries a single-use token. */
  body_blob: string | null;
  state: MailState;
  message_id: string | null;
  error: string | null;
  created_at: Date;
  sent_at: Date | null;
}

const COLUMNS = 'id, account_id, to_address, subject, body_text, body_blob, state, message_id, error, created_at, sent_at';

/** One message per `sourceKey` (e.g. the certificate alert it announces), whatever the retries. */
export async function insertMail(
  tx: Queryable,
  m: { id?: string; accountId: string; to: string | null; subject: string; text: string; bodyBlob?: string | null; sourceKey: string; at: Date },
): Promise<MailRow | null> {
  const r = await tx.query<MailRow>(
    `INSERT INTO mail_messages (id, account_id, to_address, subject, body_text, body_blob, state, source_key, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (source_key) DO NOTHING RETURNING ${COLUMNS}`,
    [m.id ?? newMailId(), m.accountId, m.to, m.subject, m.text, m.bodyBlob ?? null, m.to ? 'pending' : 'no_recipient', m.sourceKey, m.at],
  );
  return r.rows[0] ?? null;
}

export const newMailId = (): string => `mail_${randomBase62(20)}`;

export async function getMail(db: Queryable, id: string): Promise<MailRow | null> {
  const r = await db.query<MailRow>(`SELECT ${COLUMNS} FROM mail_messages WHERE id = $1`, [id]);
  return r.rows[0] ?? null;
}

export async function markMail(db: Queryable, id: string, o: { state: MailState; messageId?: string | null; error?: string | null; at: Date }): Promise<void> {
  await db.query(
    `UPDATE mail_messages SET state = $2, message_id = $3, error = $4, sent_at = CASE WHEN $2 IN ('sent', 'captured') THEN $5::timestamptz ELSE sent_at END
      WHERE id = $1`,
    [id, o.state, o.messageId ?? null, o.error?.slice(0, 500) ?? null, o.at],
  );
}

export async function listMail(db: Queryable, accountId: string, limit: number, startingAfter?: string): Promise<MailRow[]> {
  const r = await db.query<MailRow>(
    `SELECT ${COLUMNS} FROM mail_messages m
      WHERE account_id = $1
        AND ($3::text IS NULL OR (created_at, id) < (SELECT created_at, id FROM mail_messages WHERE account_id = $1 AND id = $3))
      ORDER BY created_at DESC, id DESC LIMIT $2`,
    [accountId, limit, startingAfter ?? null],
  );
  return r.rows;
}

export async function accountNotificationEmail(db: Queryable, accountId: string): Promise<string | null> {
  const r = await db.query<{ notification_email: string | null }>('SELECT notification_email FROM accounts WHERE id = $1', [accountId]);
  return r.rows[0]?.notification_email ?? null;
}

/** Who reads the captured mail (GET /v1/sandbox/mail): which rows they may see at all. */
export interface MailReader {
  accountId: string;
  /** The reader's own address (emailKey), or null for an API key. */
  addressKey: string | null;
  /** Every message of the account (owners, admins, keys; their tokens are redacted by the caller). */
  wholeAccount: boolean;
  /** Messages to the reader's address filed under other accounts too (an invite is filed under the inviting one). */
  acrossAccounts: boolean;
}

/** The reader's page of captured mail, newest first; the cursor must be a message they may see. */
export async function listMailFor(db: Queryable, reader: MailReader, limit: number, startingAfter?: string): Promise<MailRow[]> {
  const visible = `(($4::boolean AND account_id = $1) OR ($5::text IS NOT NULL AND lower(to_address) = $5 AND ($6::boolean OR account_id = $1)))`;
  const r = await db.query<MailRow>(
    `SELECT ${COLUMNS} FROM mail_messages m
      WHERE ${visible}
        AND ($3::text IS NULL OR (created_at, id) < (SELECT created_at, id FROM mail_messages WHERE id = $3 AND ${visible}))
      ORDER BY created_at DESC, id DESC LIMIT $2`,
    [reader.accountId, limit, startingAfter ?? null, reader.wholeAccount, reader.addressKey, reader.acrossAccounts],
  );
  return r.rows;
}
