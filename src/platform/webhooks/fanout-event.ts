import type { Ports } from '../ports/ports.js';
import type { Job } from '../../infra/queue/queue.js';
import { enqueueJob } from '../../infra/queue/queue.js';
import { announceNotifications, writeNotification, type NotificationInput } from '../notifications/notify.js';
import { getOutboxEvent, insertDelivery, type OutboxEvent } from '../../infra/storage/repositories/delivery-repository.js';
import { subscribedEndpoints } from '../../infra/storage/repositories/webhook-repository.js';
import { DELIVER_WEBHOOK_JOB, webhookPayload } from './event-types.js';

type Ctx = Pick<Ports, 'db' | 'clock' | 'notifications' | 'wakeWorker'>;

// Automatic deliveries reschedule one job for ~3 days (RetryLater); every claim counts as an attempt.
export const DELIVERY_JOB_MAX_ATTEMPTS = 1_000;

/**
 * Turns one outbox event into a delivery per matching enabled endpoint of its account (exactly once
 * per event and endpoint: unique constraint) plus a delivery job each, and into an in-app
 * notification where the user should look (a rejected or denied note). Safe to run twice.
 */
export async function fanoutEventJob(ctx: Ctx, job: Job<{ event_id: string }>): Promise<void> {
  const { db, clock } = ctx;
  const event = await getOutboxEvent(db, job.payload.event_id);
  if (!event) return;
  const endpoints = await subscribedEndpoints(db, event.account_id, event.type);
  const payload = webhookPayload(event);
  const notification = notificationFor(event, clock.now());
  const now = clock.now();
  let notified = false;
  await db.transaction(async (tx) => {
    for (const endpoint of endpoints) {
      const d = await insertDelivery(tx, {
        accountId: event.account_id,
        endpointId: endpoint.id,
        eventId: event.id,
        eventType: event.type,
        subjectId: event.subject_id,
        eventSeq: Number(event.seq),
        payload,
        at: now,
      });
      if (d) {
        await enqueueJob(tx, DELIVER_WEBHOOK_JOB, { delivery_id: d.id, trigger: 'automatic' }, {
          runAt: now, now, dedupeKey: `deliver:${d.id}`, maxAttempts: DELIVERY_JOB_MAX_ATTEMPTS,
        });
      }
    }
    if (notification) notified = (await writeNotification(tx, notification)) !== null;
  });
  if (endpoints.length > 0) ctx.wakeWorker();
  if (notified) await announceNotifications(ctx, [event.account_id]);
}

const LABELS = { nfce: 'NFC-e', nfe: 'NF-e', nfse: 'NFS-e' } as const;

/**
 * A rejected or denied note (NFC-e, NF-e, NFS-e) needs a person's attention; authorized and canceled ones do not.
 * So does a contingency NFC-e the authority refused, or one near its transmission deadline.
 */
function notificationFor(e: OutboxEvent, now: Date): NotificationInput | null {
  if (e.type === 'nfce.contingency_deadline' || e.type === 'nfce.contingency_failed') return contingencyNotification(e, now);
  const m = /^(nfce|nfe|nfse)\.(rejected|denied)$/.exec(e.type);
  if (!m) return null;
  const [, object, verb] = m as unknown as [string, keyof typeof LABELS, 'rejected' | 'denied'];
  const label = LABELS[object];
  const note = (e.data ?? {}) as { id?: string; number?: number; serie?: number; issuer_id?: string; rejection?: { code?: string; message?: string } | null };
  const reason = note.rejection ? `${note.rejection.code ?? ''} ${note.rejection.message ?? ''}`.trim() : 'see the note';
  return {
    accountId: e.account_id,
    type: e.type,
    title: `${label} ${note.serie ?? '?'}/${note.number ?? '?'} ${verb}`,
    body: `The authority ${verb} ${label} ${e.subject_id}: ${reason}`,
    data: { [`${object}_id`]: e.subject_id, issuer_id: note.issuer_id ?? null, event_id: e.id, rejection: note.rejection ?? null },
    sourceKey: `event:${e.id}`,
    at: now,
  };
}

function contingencyNotification(e: OutboxEvent, now: Date): NotificationInput {
  const note = (e.data ?? {}) as {
    number?: number; serie?: number; issuer_id?: string; rejection?: { code?: string; message?: string } | null;
    contingency?: { deadline_at?: string } | null;
  };
  const which = `NFC-e ${note.serie ?? '?'}/${note.number ?? '?'}`;
  const failed = e.type === 'nfce.contingency_failed';
  const reason = note.rejection ? `${note.rejection.code ?? ''} ${note.rejection.message ?? ''}`.trim() : 'see the note';
  return {
    accountId: e.account_id,
    type: e.type,
    title: failed ? `${which} issued in contingency was refused` : `${which} in contingency is near its deadline`,
    body: failed
      ? `The authority refused ${which} (${e.subject_id}), issued in offline contingency: ${reason}`
      : `${which} (${e.subject_id}) was issued in offline contingency and has not reached the authority; it must before ${note.contingency?.deadline_at ?? 'its deadline'}`,
    data: { nfce_id: e.subject_id, issuer_id: note.issuer_id ?? null, event_id: e.id, rejection: note.rejection ?? null },
    sourceKey: `event:${e.id}`,
    at: now,
  };
}
