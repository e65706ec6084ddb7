import type { Ports } from '../ports/ports.js';
import type { Job } from '../../infra/queue/queue.js';
import { enqueueJob } from '../../infra/queue/queue.js';
import { queueAccountMail } from '../mail/mail-outbox.js';
import { announceNotifications, writeNotification } from '../notifications/notify.js';
import type { Queryable } from '../../infra/storage/db.js';
import { repairDoubleUtf8 } from '../../fiscal/certificate/name-text.js';
import { recordEvent } from '../../infra/storage/repositories/outbox-repository.js';

export const CERTIFICATE_EXPIRY_JOB = 'certificates.expiry-check';
/** docs/guides/api.md#contract-certificate-alerts: alerts 30, 14, 7 and 1 day before expiry; 0 stands for `certificate.expired` on the day. */
export const EXPIRY_THRESHOLDS_DAYS = [30, 14, 7, 1] as const;
const DAY_MS = 86_400_000;
// An expiry further back than this is old news (e.g. a database restored from a backup): no alert.
const EXPIRED_ALERT_WINDOW_MS = 7 * DAY_MS;

type Ctx = Pick<Ports, 'db' | 'clock' | 'notifications' | 'wakeWorker'>;

interface CertificateRow {
  issuer_id: string;
  account_id: string;
  razao_social: string;
  cnpj: string | null;
  subject: string;
  serial_number: string;
  not_before: Date;
  not_after: Date;
}

const utcDay = (d: Date) => d.toISOString().slice(0, 10);

/** Queues the check of `day` (UTC) once, whoever asks: the dedupe key makes it one job per day across processes. */
export async function scheduleExpiryCheck(db: Queryable, day: string, now: Date): Promise<void> {
  const runAt = new Date(`${day}T00:00:00.000Z`);
  await enqueueJob(db, CERTIFICATE_EXPIRY_JOB, { day }, { runAt: runAt < now ? now : runAt, now, dedupeKey: `certificate-expiry:${day}`, maxAttempts: 10 });
}

/**
 * The daily certificate check (a recurring job: each run queues the next day's). Each alert is a
 * row claimed in the same transaction as its outbox event (webhook), notification and e-mail, so
 * several workers or a restart can never send one twice.
 */
export async function certificateExpiryJob(ctx: Ctx, job: Job<{ day: string }>): Promise<void> {
  const now = ctx.clock.now();
  const rows = await ctx.db.query<CertificateRow>(
    `SELECT c.issuer_id, i.account_id, i.razao_social, c.cnpj, c.subject, c.serial_number, c.not_before, c.not_after
       FROM issuer_certificates c JOIN issuers i ON i.id = c.issuer_id
      WHERE c.not_after > $1 AND c.not_after <= $2`,
    [new Date(now.getTime() - EXPIRED_ALERT_WINDOW_MS), new Date(now.getTime() + EXPIRY_THRESHOLDS_DAYS[0] * DAY_MS)],
  );
  const accounts: string[] = [];
  for (const stored of rows.rows) {
    // Subjects stored before names encoded twice were read as text are mailed as text too.
    const cert = { ...stored, subject: repairDoubleUtf8(stored.subject) };
    const threshold = thresholdFor(cert.not_after, now);
    if (threshold !== null && (await raiseAlert(ctx, cert, threshold, now))) accounts.push(cert.account_id);
  }
  await announceNotifications(ctx, accounts);
  if (accounts.length) ctx.wakeWorker();
  // Catch up at once after downtime; otherwise tomorrow.
  const next = job.payload.day < utcDay(now) ? utcDay(now) : utcDay(new Date(new Date(`${job.payload.day}T00:00:00Z`).getTime() + DAY_MS));
  await scheduleExpiryCheck(ctx.db, next, now);
}

/** The tightest threshold reached (a check missed for days sends the current alert, not every older one). */
export function thresholdFor(notAfter: Date, now: Date): number | null {
  const left = notAfter.getTime() - now.getTime();
  if (left <= 0) return 0;
  const reached = EXPIRY_THRESHOLDS_DAYS.filter((t) => left <= t * DAY_MS);
  return reached.length ? Math.min(...reached) : null;
}

async function raiseAlert(ctx: Ctx, cert: CertificateRow, threshold: number, now: Date): Promise<boolean> {
  const expired = threshold === 0;
  const type = expired ? 'certificate.expired' : 'certificate.expiring';
  const daysLeft = Math.max(0, Math.ceil((cert.not_after.getTime() - now.getTime()) / DAY_MS));
  const data = {
    object: 'certificate',
    issuer_id: cert.issuer_id,
    cnpj: cert.cnpj,
    subject: cert.subject,
    serial_number: cert.serial_number,
    not_before: cert.not_before.toISOString(),
    not_after: cert.not_after.toISOString(),
    status: expired ? 'expired' : 'valid',
    days_left: daysLeft,
    threshold_days: threshold,
  };
  const title = expired
    ? `Certificate of ${cert.razao_social} expired`
    : `Certificate of ${cert.razao_social} expires in ${daysLeft} day${daysLeft === 1 ? '' : 's'}`;
  const body =
    `The A1 certificate ${cert.subject} (serial ${cert.serial_number}) of issuer ${cert.issuer_id} ` +
    (expired ? `expired on ${data.not_after}; ` : `expires on ${data.not_after}; `) +
    `no NFC-e can be authorized without a valid one. Upload the renewed certificate with POST /v1/issuers/${cert.issuer_id}/certificate.`;
  return ctx.db.transaction(async (tx) => {
    const claimed = await tx.query(
      `INSERT INTO certificate_alerts (issuer_id, serial_number, threshold, event_id, claimed_at) VALUES ($1, $2, $3, '', $4)
       ON CONFLICT DO NOTHING`,
      [cert.issuer_id, cert.serial_number, threshold, now],
    );
    if (claimed.rowCount === 0) return false;
    const eventId = await recordEvent(tx, { accountId: cert.account_id, type, subjectType: 'issuer', subjectId: cert.issuer_id, data, at: now });
    await tx.query('UPDATE certificate_alerts SET event_id = $4 WHERE issuer_id = $1 AND serial_number = $2 AND threshold = $3', [
      cert.issuer_id, cert.serial_number, threshold, eventId,
    ]);
    const sourceKey = `certificate:${cert.issuer_id}:${cert.serial_number}:${threshold}`;
    await writeNotification(tx, { accountId: cert.account_id, type, title, body, data: { ...data, event_id: eventId }, sourceKey, at: now });
    await queueAccountMail(tx, { accountId: cert.account_id, subject: title, text: body, sourceKey, at: now });
    return true;
  });
}
