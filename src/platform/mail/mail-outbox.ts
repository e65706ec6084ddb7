import nodemailer, { type Transporter } from 'nodemailer';
import type { Ports } from '../ports/ports.js';
import type { Job } from '../../infra/queue/queue.js';
import { enqueueJob } from '../../infra/queue/queue.js';
import type { Queryable } from '../../infra/storage/db.js';
import { accountNotificationEmail, getMail, insertMail, markMail, newMailId, type MailRow } from './storage/mail-repository.js';
import type { SecretBox } from '../../infra/security/secret-box.js';

export const SEND_MAIL_JOB = 'mail.send';

export interface MailInput {
  accountId: string;
  subject: string;
  text: string;
  /** What the message announces: one message per source, ever. */
  sourceKey: string;
  at: Date;
}

/**
 * Queues an e-mail to the account's notification address in the caller's transaction; a worker sends
 * it (SMTP_URL) or, without SMTP, captures it so GET /v1/sandbox/mail shows what would have been sent.
 */
export async function queueAccountMail(tx: Queryable, m: MailInput): Promise<string | null> {
  const to = await accountNotificationEmail(tx, m.accountId);
  const row = await insertMail(tx, { ...m, to });
  if (!row || !to) return row?.id ?? null;
  await enqueueJob(tx, SEND_MAIL_JOB, { mail_id: row.id }, { runAt: m.at, now: m.at, dedupeKey: `mail:${row.id}`, maxAttempts: 12 });
  return row.id;
}

/**
 * Queues an e-mail to a person's own address (sign-up verification, password reset, invite) in the
 * caller's transaction; listed under the account in the sandbox like every other message.
 */
export async function queueMailTo(tx: Queryable, secrets: SecretBox, m: MailInput & { to: string }): Promise<string | null> {
  const id = newMailId();
  const bodyBlob = await secrets.encrypt(Buffer.from(m.text, 'utf8'), mailAad(id));
  const row = await insertMail(tx, { ...m, id, text: SEALED_TEXT, bodyBlob });
  if (!row) return null;
  await enqueueJob(tx, SEND_MAIL_JOB, { mail_id: row.id }, { runAt: m.at, now: m.at, dedupeKey: `mail:${row.id}`, maxAttempts: 12 });
  return row.id;
}

const SEALED_TEXT = '(sealed: this message carries a single-use link)';
const mailAad = (id: string) => `mail:${id}:body`;

/** The message's text, unsealed when it was stored sealed. */
export async function mailText(secrets: SecretBox, mail: Pick<MailRow, 'id' | 'body_text' | 'body_blob'>): Promise<string> {
  return mail.body_blob ? (await secrets.decrypt(mail.body_blob, mailAad(mail.id))).toString('utf8') : mail.body_text;
}

export interface MailSender {
  send(job: Job<{ mail_id: string }>): Promise<void>;
  close(): void;
}

/** The worker side: one SMTP transport (pooled connections) per process, created on first use. */
export function mailSender(ctx: Pick<Ports, 'db' | 'clock' | 'config' | 'secrets'>): MailSender {
  let transport: Transporter | undefined;
  return {
    async send(job) {
      const mail = await getMail(ctx.db, job.payload.mail_id);
      if (!mail || mail.state !== 'pending' || !mail.to_address) return;
      if (!ctx.config.smtpUrl) {
        await markMail(ctx.db, mail.id, { state: 'captured', at: ctx.clock.now() });
        return;
      }
      transport ??= nodemailer.createTransport(ctx.config.smtpUrl);
      try {
        const info = await transport.sendMail({ from: ctx.config.mailFrom, to: mail.to_address, subject: mail.subject, text: await mailText(ctx.secrets, mail) });
        await markMail(ctx.db, mail.id, { state: 'sent', messageId: info.messageId, at: ctx.clock.now() });
      } catch (err) {
        // The runner retries with backoff; the last error is kept on the row (never the SMTP URL: it holds the password).
        const message = err instanceof Error ? err.message.replace(/\/\/[^@\s]*@/g, '//***@') : 'send failed';
        if (job.attempts >= job.max_attempts) await markMail(ctx.db, mail.id, { state: 'failed', error: message, at: ctx.clock.now() });
        else await markMail(ctx.db, mail.id, { state: 'pending', error: message, at: ctx.clock.now() });
        throw new Error(`mail ${mail.id}: ${message}`);
      }
    },
    close() {
      transport?.close();
    },
  };
}
