import type { Ports } from '../ports/ports.js';
import { ApiError, notFound } from '../../kernel/errors.js';
import { newId } from '../../kernel/ids.js';
import { page } from '../../kernel/page.js';
import { enqueueJob } from '../../infra/queue/queue.js';
import {
  attemptsOf,
  getDelivery,
  insertDelivery,
  listDeliveries,
  type AttemptRow,
  type AttemptTrigger,
  type DeliveryRow,
} from '../../infra/storage/repositories/delivery-repository.js';
import {
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  insertWebhookEndpoint,
  listWebhookEndpoints,
  updateWebhookEndpoint,
  type WebhookEndpointRow,
} from '../../infra/storage/repositories/webhook-repository.js';
import { DELIVER_WEBHOOK_JOB, webhookPayload } from './event-types.js';
import { checkWebhookUrl, WebhookUrlError } from './url-guard.js';
import { generateWebhookSecret, sealWebhookSecret } from './webhook-secret.js';

type Ctx = Pick<Ports, 'db' | 'clock' | 'config' | 'secrets' | 'wakeWorker'>;

export interface CreateWebhookInput {
  url: string;
  event_types: string[];
  description?: string;
  enabled?: boolean;
}

function checkUrl(url: string, config: Ctx['config']): void {
  try {
    checkWebhookUrl(url, config);
  } catch (err) {
    if (err instanceof WebhookUrlError) throw new ApiError('validation_error', `url ${err.message}`, [{ field: 'url', message: err.message }]);
    throw err;
  }
}

const eventTypesOf = (types: string[]) => (types.includes('*') ? ['*'] : types);

/** Creates an endpoint; the signing secret is returned here only (stored envelope-encrypted). */
export async function createWebhook(ctx: Ctx, accountId: string, input: CreateWebhookInput): Promise<{ row: WebhookEndpointRow; secret: string }> {
  checkUrl(input.url, ctx.config);
  const id = newId('whk');
  const secret = generateWebhookSecret();
  const row = await insertWebhookEndpoint(ctx.db, {
    id,
    accountId,
    url: input.url,
    description: input.description ?? '',
    eventTypes: eventTypesOf(input.event_types),
    enabled: input.enabled ?? true,
    secretBlob: await sealWebhookSecret(ctx.secrets, id, secret),
    at: ctx.clock.now(),
  });
  return { row, secret };
}

/**
 * PATCH /v1/webhooks/:id: the URL (checked as on creation), event types, description,
 * and enabled; an endpoint disabled after 3 days of failures, or by hand, can be enabled again. The
 * signing secret does not change.
 */
export async function updateWebhook(ctx: Ctx, accountId: string, id: string, input: Partial<CreateWebhookInput>): Promise<WebhookEndpointRow> {
  if (input.url !== undefined) checkUrl(input.url, ctx.config);
  const row = await updateWebhookEndpoint(
    ctx.db, accountId, id,
    { url: input.url, description: input.description, eventTypes: input.event_types && eventTypesOf(input.event_types), enabled: input.enabled },
    ctx.clock.now(),
  );
  if (!row) throw notFound('Webhook endpoint');
  return row;
}

export async function listWebhookPage(ctx: Pick<Ctx, 'db'>, accountId: string, limit: number, startingAfter?: string) {
  return page(await listWebhookEndpoints(ctx.db, accountId, limit + 1, startingAfter), limit);
}

export async function requireWebhook(ctx: Pick<Ctx, 'db'>, accountId: string, id: string): Promise<WebhookEndpointRow> {
  const row = await getWebhookEndpoint(ctx.db, accountId, id);
  if (!row) throw notFound('Webhook endpoint');
  return row;
}

export async function deleteWebhook(ctx: Ctx, accountId: string, id: string): Promise<void> {
  if (!(await deleteWebhookEndpoint(ctx.db, accountId, id, ctx.clock.now()))) throw notFound('Webhook endpoint');
}

export async function deliveriesWithAttempts(
  ctx: Pick<Ctx, 'db'>,
  accountId: string,
  endpointId: string,
  limit: number,
  startingAfter?: string,
): Promise<Array<{ delivery: DeliveryRow; attempts: AttemptRow[] }>> {
  await requireWebhook(ctx, accountId, endpointId);
  const rows = await listDeliveries(ctx.db, endpointId, limit, startingAfter);
  const attempts = await attemptsOf(ctx.db, rows.map((r) => r.id));
  return rows.map((delivery) => ({ delivery, attempts: attempts.filter((a) => a.delivery_id === delivery.id) }));
}

async function queueAttempt(ctx: Ctx, d: DeliveryRow, trigger: AttemptTrigger, at: Date): Promise<void> {
  await enqueueJob(ctx.db, DELIVER_WEBHOOK_JOB, { delivery_id: d.id, trigger }, { runAt: at, now: at, maxAttempts: 3 });
  ctx.wakeWorker();
}

/** Sends the same event (same id, same body, fresh signature) again as a new attempt of that delivery. */
export async function replayDelivery(ctx: Ctx, accountId: string, endpointId: string, deliveryId: string): Promise<DeliveryRow> {
  await requireWebhook(ctx, accountId, endpointId);
  const d = await getDelivery(ctx.db, deliveryId, accountId);
  if (!d || d.endpoint_id !== endpointId) throw notFound('Delivery');
  await queueAttempt(ctx, d, 'replay', ctx.clock.now());
  return d;
}

/** Sends a `webhook.test` event to this endpoint only (one attempt, no retries). */
export async function sendTestEvent(ctx: Ctx, accountId: string, endpointId: string): Promise<DeliveryRow> {
  const endpoint = await requireWebhook(ctx, accountId, endpointId);
  const now = ctx.clock.now();
  const eventId = newId('evt');
  const data = { webhook_id: endpoint.id, url: endpoint.url, message: 'This is a test event sent from the API.' };
  const d = await insertDelivery(ctx.db, {
    accountId,
    endpointId,
    eventId,
    eventType: 'webhook.test',
    subjectId: null,
    eventSeq: null,
    payload: webhookPayload({ id: eventId, type: 'webhook.test', created_at: now, data }),
    at: now,
  });
  await queueAttempt(ctx, d!, 'test', now);
  return d!;
}
