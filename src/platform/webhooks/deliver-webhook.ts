import type { Ports } from '../ports/ports.js';
import type { Job } from '../../infra/queue/queue.js';
import { RetryLater } from '../../infra/queue/runner.js';
import type { Queryable } from '../../infra/storage/db.js';
import { queueAccountMail } from '../mail/mail-outbox.js';
import { announceNotifications, writeNotification } from '../notifications/notify.js';
import {
  earlierPendingDelivery,
  getDelivery,
  recordAttempt,
  setDeliveryState,
  type AttemptTrigger,
  type DeliveryRow,
  type DeliveryState,
} from '../../infra/storage/repositories/delivery-repository.js';
import {
  disableEndpoint,
  getWebhookEndpoint,
  markEndpointFailing,
  markEndpointHealthy,
  type WebhookEndpointRow,
} from '../../infra/storage/repositories/webhook-repository.js';
import { DISABLE_AFTER_MS, nextRetryAt } from './retry-schedule.js';
import { resolveWebhookTarget, WebhookUrlError } from './url-guard.js';
import { postWebhook, type AttemptResult } from './webhook-http.js';
import { openWebhookSecret, signedHeaders } from './webhook-secret.js';

export type DeliverJobPayload = { delivery_id: string; trigger: AttemptTrigger };
type Ctx = Pick<Ports, 'db' | 'clock' | 'config' | 'secrets' | 'notifications' | 'wakeWorker'>;

/**
 * One webhook attempt (at least once: a crash after the POST and before the record sends it again,
 * with the same `webhook-id` so receivers can drop the duplicate). Automatic deliveries retry on the
 * schedule of retry-schedule.ts by rescheduling this same job; replays and tests are single attempts.
 */
export async function deliverWebhookJob(ctx: Ctx, job: Job<DeliverJobPayload>): Promise<void> {
  const { db, clock } = ctx;
  const automatic = job.payload.trigger === 'automatic';
  const d = await getDelivery(db, job.payload.delivery_id);
  if (!d || (automatic && d.state !== 'pending')) return; // settled by an earlier run of this job
  const endpoint = await getWebhookEndpoint(db, d.account_id, d.endpoint_id);
  if (!endpoint || (automatic && !endpoint.enabled)) {
    if (automatic) await setDeliveryState(db, d.id, 'canceled', clock.now());
    return;
  }
  if (automatic) {
    // In order per record: an earlier event about the same note goes first (or gives up) at this endpoint.
    const earlier = await earlierPendingDelivery(db, d);
    if (earlier) {
      const wait = (earlier.next_attempt_at?.getTime() ?? 0) - clock.now().getTime();
      throw new RetryLater(Math.max(1_000, wait), `waits for ${earlier.id} (same record, earlier event)`);
    }
  }

  const now = clock.now();
  const result = await attempt(ctx, endpoint, d, now);
  const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  let state: DeliveryState;
  let next: Date | null = null;
  if (ok) state = 'succeeded';
  else if (automatic) {
    next = nextRetryAt(d.created_at, now, d.attempt_count + 1);
    state = next ? 'pending' : 'failed';
  } else if (job.payload.trigger === 'test') state = 'failed';
  else {
    // A failed replay leaves the delivery as it was (and its automatic retries, if any, on schedule).
    state = d.state;
    next = d.next_attempt_at;
  }

  let disabled = false;
  await db.transaction(async (tx) => {
    await recordAttempt(
      tx,
      d.id,
      {
        trigger: job.payload.trigger,
        attempted_at: now,
        status_code: result.statusCode,
        latency_ms: result.latencyMs,
        error: result.error,
        response_excerpt: result.excerpt,
        next_retry_at: automatic ? next : null,
      },
      { state, nextAttemptAt: next },
    );
    if (ok) await markEndpointHealthy(tx, endpoint.id, now);
    else if (automatic) {
      const since = await markEndpointFailing(tx, endpoint.id, now);
      // Failing for 3 days without one success: either this long, or a delivery that exhausted its
      // ~72 h of retries while the endpoint never answered 2xx since it was created.
      const failedForDays = now.getTime() - since.getTime() >= DISABLE_AFTER_MS || (state === 'failed' && since.getTime() <= d.created_at.getTime());
      if (failedForDays) disabled = await disableAndTell(tx, endpoint, since, now);
    }
  });
  if (disabled) {
    await announceNotifications(ctx, [endpoint.account_id]);
    ctx.wakeWorker();
  }
  if (automatic && state === 'pending' && next) {
    throw new RetryLater(next.getTime() - now.getTime(), `webhook ${d.id}: ${result.error ?? `HTTP ${result.statusCode}`}`);
  }
}

async function attempt(ctx: Ctx, endpoint: WebhookEndpointRow, d: DeliveryRow, now: Date): Promise<AttemptResult> {
  try {
    const target = await resolveWebhookTarget(endpoint.url, ctx.config);
    const secret = await openWebhookSecret(ctx.secrets, endpoint.id, endpoint.secret_blob);
    return await postWebhook(target, signedHeaders(secret, d.event_id, now, d.payload), d.payload, ctx.config.webhookTimeoutMs);
  } catch (err) {
    const message = err instanceof WebhookUrlError ? `refused by the SSRF guard: ${err.message}` : err instanceof Error ? err.message : String(err);
    return { statusCode: null, latencyMs: 0, excerpt: null, error: message.slice(0, 300) };
  }
}

async function disableAndTell(tx: Queryable, endpoint: WebhookEndpointRow, since: Date, now: Date): Promise<boolean> {
  const reason = `failing since ${since.toISOString()} (no 2xx answer for 3 days)`;
  if (!(await disableEndpoint(tx, endpoint.id, reason, now))) return false;
  const sourceKey = `webhook.disabled:${endpoint.id}:${since.toISOString()}`;
  const text =
    `Your webhook endpoint ${endpoint.id} (${endpoint.url}) has answered no delivery with 2xx since ${since.toISOString()} ` +
    'and has been disabled. Fix the receiver, then create the endpoint again; failed deliveries can be replayed ' +
    `(POST /v1/webhooks/${endpoint.id}/deliveries/:id/replay).`;
  await writeNotification(tx, {
    accountId: endpoint.account_id,
    type: 'webhook.disabled',
    title: 'Webhook endpoint disabled',
    body: text,
    data: { webhook_id: endpoint.id, url: endpoint.url, failing_since: since.toISOString() },
    sourceKey,
    at: now,
  });
  await queueAccountMail(tx, { accountId: endpoint.account_id, subject: `Webhook endpoint disabled: ${endpoint.url}`, text, sourceKey, at: now });
  return true;
}
