import type { Note } from '../domain/note.js';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Job } from '../../../infra/queue/queue.js';
import type { Ports } from '../../../platform/ports/ports.js';
import { getOutboxEvent } from '../../../infra/storage/repositories/delivery-repository.js';
import { findIssuer } from '../../../infra/storage/repositories/issuer-repository.js';
import { getNoteForWork } from '../storage/note-repository.js';
import {
  addBounce,
  bouncedAmong,
  bounceKey,
  claimBuyerMail,
  findBuyerMailSettings,
  openBuyerMail,
  settleBuyerMail,
  type BuyerMailKind,
  type BuyerMailRow,
} from '../../../infra/storage/repositories/buyer-mail-repository.js';
import { attachmentNames, buyerMailText, buyerOf } from './buyer-mail-text.js';
import { renderNoteDanfe } from './render-note-danfe.js';

/** Job kind queued by the outbox trigger of migration 43 (one per note and kind: its dedupe key). */
export const BUYER_MAIL_JOB = 'notes.buyer-mail';

export type BuyerMailDeps = Pick<Ports, 'db' | 'clock' | 'config'>;

export interface BuyerMailer {
  send(job: Job<{ event_id: string }>): Promise<void>;
  close(): void;
}

interface Attachment { filename: string; content: Buffer | string; contentType: string }

/** An SMTP reply of the 5xx class: the server refused for good (RFC 5321 4.2.1), a retry would get the same. */
const permanent = (code: unknown): code is number => typeof code === 'number' && code >= 500 && code < 600;

/**
 * Job `notes.buyer-mail` (docs/guides/email.md): the buyer of an authorized note gets
 * its DANFE and authorized XML, and of a canceled one the cancellation event's XML. The first run records
 * what is sent to whom (buyer_mails, one row per note and kind); a later run of the same job (a retry, a
 * lease taken over) reads that row and sends nothing once the SMTP server accepted the message. An address
 * the server refused with a 5xx joins the account's bounce list, and no later mail goes to it.
 */
export function buyerMailer(deps: BuyerMailDeps): BuyerMailer {
  let transport: Transporter | undefined;
  return {
    async send(job) {
      const event = await getOutboxEvent(deps.db, job.payload.event_id);
      if (!event) return;
      const note = await getNoteForWork(deps.db, event.subject_id);
      if (!note) return;
      const kind: BuyerMailKind = event.type.endsWith('.canceled') ? 'canceled' : 'authorized';
      const record = await recordOf(deps, note, kind, event.id);
      if (record.state !== 'pending' && record.state !== 'sending') return;
      const row = await claimBuyerMail(deps.db, record.id);
      if (!row || !row.to_address) return;
      const attachments = await attachmentsOf(deps, note, kind);
      const now = () => deps.clock.now();
      if (!deps.config.smtpUrl) {
        // The sandbox without SMTP: what would have gone is recorded, nothing leaves.
        await settleBuyerMail(deps.db, row.id, { state: 'captured', at: now() });
        return;
      }
      transport ??= nodemailer.createTransport(deps.config.smtpUrl);
      try {
        const info = await transport.sendMail({
          from: { name: await senderName(deps, note), address: fromAddress(deps.config.mailFrom) },
          to: row.to_address,
          ...(row.bcc_address ? { bcc: row.bcc_address } : {}),
          subject: row.subject ?? '',
          text: buyerMailText(note, kind, ...(await issuerNames(deps, note))).text,
          attachments,
          // The same Message-ID on every attempt: a copy a lost answer made the worker send again is one message to the reader's client.
          messageId: `<${row.id}@${fromAddress(deps.config.mailFrom).split('@')[1] ?? 'fiscal-gateway.local'}>`,
        });
        // Accepted for some recipients: the ones refused for good join the bounce list; the buyer's refusal is a bounce of the mail.
        let buyerRefused = false;
        for (const r of (info as { rejectedErrors?: Array<{ recipient?: string; responseCode?: number; response?: string }> }).rejectedErrors ?? []) {
          if (!r.recipient || !permanent(r.responseCode)) continue;
          await bounce(deps, row, r.recipient, r.responseCode, r.response ?? '');
          if (bounceKey(r.recipient) === bounceKey(row.to_address)) buyerRefused = true;
        }
        await settleBuyerMail(deps.db, row.id, { state: buyerRefused ? 'bounced' : 'sent', messageId: info.messageId, at: now() });
      } catch (err) {
        const e = err as { code?: string; responseCode?: number; response?: string; rejected?: string[]; rejectedErrors?: Array<{ recipient?: string; responseCode?: number; response?: string }> };
        const message = err instanceof Error ? err.message.replace(/\/\/[^@\s]*@/g, '//***@') : 'send failed';
        if (e.code === 'EENVELOPE' && permanent(e.responseCode)) {
          // Every recipient refused at RCPT TO with a 5xx: a hard bounce of the buyer's address (and the Bcc's).
          const refused = e.rejectedErrors?.length ? e.rejectedErrors : [{ recipient: row.to_address, responseCode: e.responseCode, response: e.response ?? message }];
          for (const r of refused) if (r.recipient) await bounce(deps, row, r.recipient, r.responseCode ?? e.responseCode, r.response ?? message);
          await settleBuyerMail(deps.db, row.id, { state: 'bounced', error: message, at: now() });
          return;
        }
        if (permanent(e.responseCode) || job.attempts >= job.max_attempts) {
          await settleBuyerMail(deps.db, row.id, { state: 'failed', error: message, at: now() });
          return;
        }
        // A temporary refusal (4xx) or no answer: the runner tries again with backoff.
        await settleBuyerMail(deps.db, row.id, { state: 'pending', error: message, at: now() });
        throw new Error(`buyer mail ${row.id}: ${message}`);
      }
    },
    close() {
      transport?.close();
    },
  };
}

/**
 * The note's record of this kind, opened on the first run: who gets it (the sale's `email.to`, else the
 * buyer's e-mail; the issuer's accountant in Bcc) or why nobody does (no address, an address on the
 * bounce list). The outbox trigger queued the job only where a mail may go (the issuer's setting or the
 * sale's `email.send`).
 */
async function recordOf(deps: BuyerMailDeps, note: Note, kind: BuyerMailKind, eventId: string): Promise<BuyerMailRow> {
  const settings = await findBuyerMailSettings(deps.db, note.issuer_id);
  const buyer = buyerOf(note).address;
  const accountant = settings?.accountant_email ?? null;
  const bounced = await bouncedAmong(deps.db, note.account_id, [buyer, accountant].filter((a): a is string => a !== null));
  const on = (a: string | null) => a !== null && bounced.has(bounceKey(a));
  const reason = buyer === null ? 'no_address' : on(buyer) ? 'address_bounced' : null;
  const [issuerName, cnpj] = await issuerNames(deps, note);
  return openBuyerMail(deps.db, {
    accountId: note.account_id,
    issuerId: note.issuer_id,
    noteId: note.id,
    kind,
    eventId,
    to: buyer,
    bcc: accountant && !on(accountant) && reason === null ? accountant : null,
    subject: buyerMailText(note, kind, issuerName, cnpj).subject,
    state: reason === null ? 'pending' : 'skipped',
    reason,
    at: deps.clock.now(),
  });
}

async function attachmentsOf(deps: BuyerMailDeps, note: Note, kind: BuyerMailKind): Promise<Attachment[]> {
  const names = attachmentNames(note);
  if (kind === 'canceled') {
    return note.cancel_proc_xml ? [{ filename: names.cancellation, content: note.cancel_proc_xml, contentType: 'application/xml' }] : [];
  }
  const form = note.model === 65 ? { model: 65 as const, width: 80 as const } : note.model === 55 ? { model: 55 as const } : { model: 99 as const };
  const { pdf } = await renderNoteDanfe(deps, note, form);
  return [
    { filename: names.pdf, content: pdf, contentType: 'application/pdf' },
    { filename: names.xml, content: note.proc_xml ?? '', contentType: 'application/xml' },
  ];
}

async function bounce(deps: BuyerMailDeps, row: BuyerMailRow, address: string, code: number | undefined, response: string): Promise<void> {
  await addBounce(deps.db, { accountId: row.account_id, address, smtpCode: code ?? 550, response, noteId: row.note_id, at: deps.clock.now() });
}

/** The issuer as the buyer knows it (trade name, else legal name) and its CNPJ. */
async function issuerNames(deps: BuyerMailDeps, note: Note): Promise<[string, string]> {
  const issuer = await findIssuer(deps.db, note.account_id, note.issuer_id);
  return [issuer?.nome_fantasia || issuer?.razao_social || 'Emitente', issuer?.cnpj ?? ''];
}

/** The From header's display name: the issuer's setting, else its name. */
async function senderName(deps: BuyerMailDeps, note: Note): Promise<string> {
  const settings = await findBuyerMailSettings(deps.db, note.issuer_id);
  return settings?.sender_name || (await issuerNames(deps, note))[0];
}

/** The address part of MAIL_FROM ("Name <addr>" or a bare address). */
const fromAddress = (mailFrom: string): string => (/<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom).trim();
