import type { AttemptRow, DeliveryRow } from '../../infra/storage/repositories/delivery-repository.js';
import type { WebhookEndpointRow } from '../../infra/storage/repositories/webhook-repository.js';

export function presentWebhook(r: WebhookEndpointRow) {
  return {
    id: r.id,
    object: 'webhook_endpoint' as const,
    url: r.url,
    description: r.description,
    event_types: r.event_types,
    enabled: r.enabled,
    disabled_reason: r.disabled_reason,
    failing_since: r.failing_since?.toISOString() ?? null,
    created_at: r.created_at.toISOString(),
  };
}

export function presentAttempt(a: AttemptRow) {
  return {
    attempt: a.attempt,
    trigger: a.trigger,
    attempted_at: a.attempted_at.toISOString(),
    status_code: a.status_code,
    latency_ms: a.latency_ms,
    error: a.error,
    response_excerpt: a.response_excerpt,
    next_retry_at: a.next_retry_at?.toISOString() ?? null,
  };
}

export function presentDelivery(d: DeliveryRow, attempts: AttemptRow[]) {
  return {
    id: d.id,
    object: 'webhook_delivery' as const,
    webhook_id: d.endpoint_id,
    event_id: d.event_id,
    event_type: d.event_type,
    state: d.state,
    attempt_count: d.attempt_count,
    last_status_code: d.last_status_code,
    next_attempt_at: d.next_attempt_at?.toISOString() ?? null,
    created_at: d.created_at.toISOString(),
    attempts: attempts.map(presentAttempt),
  };
}
