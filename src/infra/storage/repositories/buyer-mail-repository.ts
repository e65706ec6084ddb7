import type { Queryable } from '../db.js';
import { randomBase62 } from '../../../kernel/ids.js';

// Storage of the buyer e-mail (migration 43): the issuer's settings, one record per note and kind,
// and the account's bounce list.

export interface BuyerMailSettingsRow {
  issuer_id: string;
  account_id: string;
  enabled: boolean;
  sender_name: string | null;
  accountant_email: string | null;
  updated_at: Date;
}

export async function findBuyerMailSettings(db: Queryable, issuerId: string): Promise<BuyerMailSettingsRow | null> {
  const r = await db.query<BuyerMailSettingsRow>('SELECT * FROM issuer_buyer_mail WHERE issuer_id = $1', [issuerId]);
  return r.rows[0] ?? null;
}

export async function upsertBuyerMailSettings(
  db: Queryable,
  s: { issuerId: string; accountId: string; enabled: boolean; senderName: string | null; accountantEmail: string | null; at: Date },
): Promise<BuyerMailSettingsRow> {
  const r = await db.query<BuyerMailSettingsRow>(
    `INSERT INTO issuer_buyer_mail (issuer_id, account_id, enabled, sender_name, accountant_email, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (issuer_id) DO UPDATE SET enabled = $3, sender_name = $4, accountant_email = $5, updated_at = $6
     RETURNING *`,
    [s.issuerId, s.accountId, s.enabled, s.senderName, s.accountantEmail, s.at],
  );
  return r.rows[0]!;
}

export type BuyerMailKind = 'authorized' | 'canceled';
/** Why a record was opened `skipped`: the note has no buyer address, or it is on the bounce list. */
export type BuyerMailSkipReason = 'no_address' | 'address_bounced';
export type BuyerMailState = 'pending' | 'sending' | 'sent' | 'captured' | 'skipped' | 'bounced' | 'failed';

export interface BuyerMailRow {
  id: string;
  account_id: string;
  issuer_id: string;
  note_id: string;
  kind: BuyerMailKind;
  event_id: string;
  to_address: string | null;
  bcc_address: string | null;
  subject: string | null;
  state: BuyerMailState;
  reason: BuyerMailSkipReason | null;
  message_id: string | null;
  error: string | null;
  attempts: number;
  created_at: Date;
  sent_at: Date | null;
}

/**
 * The record of a note's mail of one kind: created by the first run of the job, found again by every
 * later one (UNIQUE note_id, kind). Addresses and subject are fixed by the first run.
 */
export async function openBuyerMail(
  db: Queryable,
  m: { accountId: string; issuerId: string; noteId: string; kind: BuyerMailKind; eventId: string; to: string | null; bcc: string | null; subject: string; state: 'pending' | 'skipped'; reason: BuyerMailSkipReason | null; at: Date },
): Promise<BuyerMailRow> {
  await db.query(
    `INSERT INTO buyer_mails (id, account_id, issuer_id, note_id, kind, event_id, to_address, bcc_address, subject, state, reason, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (note_id, kind) DO NOTHING`,
    [`bml_${randomBase62(20)}`, m.accountId, m.issuerId, m.noteId, m.kind, m.eventId, m.to, m.bcc, m.subject, m.state, m.reason, m.at],
  );
  const r = await db.query<BuyerMailRow>('SELECT * FROM buyer_mails WHERE note_id = $1 AND kind = $2', [m.noteId, m.kind]);
  return r.rows[0]!;
}

/** Takes the record for one sending attempt: only a pending one (or one left `sending` by a worker that died). */
export async function claimBuyerMail(db: Queryable, id: string): Promise<BuyerMailRow | null> {
  const r = await db.query<BuyerMailRow>(
    `UPDATE buyer_mails SET state = 'sending', attempts = attempts + 1 WHERE id = $1 AND state IN ('pending', 'sending') RETURNING *`,
    [id],
  );
  return r.rows[0] ?? null;
}

export async function settleBuyerMail(
  db: Queryable,
  id: string,
  o: { state: BuyerMailState; messageId?: string | null; error?: string | null; reason?: BuyerMailSkipReason | null; at: Date },
): Promise<void> {
  await db.query(
    `UPDATE buyer_mails SET state = $2, message_id = coalesce($3, message_id), error = $4, reason = coalesce($5, reason),
            sent_at = CASE WHEN $2 IN ('sent', 'captured') THEN $6::timestamptz ELSE sent_at END
      WHERE id = $1`,
    [id, o.state, o.messageId ?? null, o.error?.slice(0, 500) ?? null, o.reason ?? null, o.at],
  );
}

export async function listBuyerMails(
  db: Queryable,
  accountId: string,
  f: { noteId?: string | undefined; limit: number; startingAfter?: string | undefined },
): Promise<BuyerMailRow[]> {
  const r = await db.query<BuyerMailRow>(
    `SELECT * FROM buyer_mails
      WHERE account_id = $1 AND ($2::text IS NULL OR note_id = $2)
        AND ($4::text IS NULL OR (created_at, id) < (SELECT created_at, id FROM buyer_mails WHERE account_id = $1 AND id = $4))
      ORDER BY created_at DESC, id DESC LIMIT $3`,
    [accountId, f.noteId ?? null, f.limit, f.startingAfter ?? null],
  );
  return r.rows;
}

export interface MailBounceRow {
  account_id: string;
  address_key: string;
  address: string;
  smtp_code: number;
  response: string;
  note_id: string | null;
  bounced_at: Date;
}

/** How an address is compared: trimmed and lower-cased (the list holds it once whatever its spelling). */
export const bounceKey = (address: string): string => address.trim().toLowerCase();

export async function addBounce(db: Queryable, b: { accountId: string; address: string; smtpCode: number; response: string; noteId: string | null; at: Date }): Promise<void> {
  await db.query(
    `INSERT INTO mail_bounces (account_id, address_key, address, smtp_code, response, note_id, bounced_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (account_id, address_key) DO UPDATE SET smtp_code = $4, response = $5, note_id = $6, bounced_at = $7`,
    [b.accountId, bounceKey(b.address), b.address.trim(), b.smtpCode, b.response.slice(0, 500), b.noteId, b.at],
  );
}

/** The addresses of `addresses` on the account's bounce list. */
export async function bouncedAmong(db: Queryable, accountId: string, addresses: string[]): Promise<Set<string>> {
  if (addresses.length === 0) return new Set();
  const r = await db.query<{ address_key: string }>(
    'SELECT address_key FROM mail_bounces WHERE account_id = $1 AND address_key = ANY($2)',
    [accountId, addresses.map(bounceKey)],
  );
  return new Set(r.rows.map((x) => x.address_key));
}

export async function listBounces(db: Queryable, accountId: string, limit: number, startingAfter?: string): Promise<MailBounceRow[]> {
  const r = await db.query<MailBounceRow>(
    `SELECT * FROM mail_bounces WHERE account_id = $1 AND ($3::text IS NULL OR address_key > $3)
      ORDER BY address_key LIMIT $2`,
    [accountId, limit, startingAfter ? bounceKey(startingAfter) : null],
  );
  return r.rows;
}

export async function removeBounce(db: Queryable, accountId: string, address: string): Promise<boolean> {
  const r = await db.query('DELETE FROM mail_bounces WHERE account_id = $1 AND address_key = $2', [accountId, bounceKey(address)]);
  return r.rowCount > 0;
}
