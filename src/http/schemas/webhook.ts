import { Type } from 'typebox';
import { WEBHOOK_EVENT_TYPES } from '../../platform/webhooks/event-types.js';
import { StringLiterals, Timestamp } from './common.js';

const EventType = StringLiterals([...WEBHOOK_EVENT_TYPES, '*'], { description: 'An event type, or `*` for all' });

export const WebhookEndpoint = Type.Object(
  {
    id: Type.String({ examples: ['whk_3Kd8Lq0ZmX5tRb7WcN2p'] }),
    object: Type.Literal('webhook_endpoint'),
    url: Type.String({ format: 'uri' }),
    description: Type.String(),
    event_types: Type.Array(Type.String(), { examples: [['nfce.authorized', 'nfce.rejected']] }),
    enabled: Type.Boolean(),
    disabled_reason: Type.Union([Type.String(), Type.Null()], { description: 'Why the gateway disabled it (3 days without a 2xx)' }),
    failing_since: Type.Union([Timestamp, Type.Null()], { description: 'First failure since the last success' }),
    created_at: Timestamp,
  },
  { title: 'WebhookEndpoint' },
);

export const WebhookEndpointWithSecret = Type.Intersect(
  [WebhookEndpoint, Type.Object({ secret: Type.String({ description: 'Signing secret (`whsec_...`). Shown only in this answer: store it now.' }) })],
  { title: 'WebhookEndpointWithSecret' },
);

export const CreateWebhookBody = Type.Object(
  {
    url: Type.String({ minLength: 8, maxLength: 2048, examples: ['https://example.com/hooks/fiscal'] }),
    event_types: Type.Array(EventType, { minItems: 1, uniqueItems: true, examples: [['*']] }),
    description: Type.Optional(Type.String({ maxLength: 500 })),
    enabled: Type.Optional(Type.Boolean({ default: true })),
  },
  { additionalProperties: false },
);

export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(Type.String({ minLength: 8, maxLength: 2048 })),
    event_types: Type.Optional(Type.Array(EventType, { minItems: 1, uniqueItems: true })),
    description: Type.Optional(Type.String({ maxLength: 500 })),
    enabled: Type.Optional(Type.Boolean({ description: 'true enables a disabled endpoint again (its failure run starts afresh)' })),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const WebhookAttempt = Type.Object(
  {
    attempt: Type.Integer({ minimum: 1 }),
    trigger: Type.Enum(['automatic', 'replay', 'test']),
    attempted_at: Timestamp,
    status_code: Type.Union([Type.Integer(), Type.Null()], { description: 'null when no HTTP answer came (timeout, refused, SSRF guard)' }),
    latency_ms: Type.Integer(),
    error: Type.Union([Type.String(), Type.Null()]),
    response_excerpt: Type.Union([Type.String(), Type.Null()], { description: 'First 1 KB of the answer body' }),
    next_retry_at: Type.Union([Timestamp, Type.Null()]),
  },
  { title: 'WebhookAttempt' },
);

export const WebhookDelivery = Type.Object(
  {
    id: Type.String({ examples: ['dlv_7Pq1Xz9KcM4nWb2LtR8v'] }),
    object: Type.Literal('webhook_delivery'),
    webhook_id: Type.String(),
    event_id: Type.String({ description: 'Also the `webhook-id` header: the same across retries and replays' }),
    event_type: Type.String(),
    state: Type.Enum(['pending', 'succeeded', 'failed', 'canceled'], {
      description: '`pending` while retries remain; `failed` after ~72 h without a 2xx; `canceled` when the endpoint was disabled or deleted',
    }),
    attempt_count: Type.Integer(),
    last_status_code: Type.Union([Type.Integer(), Type.Null()]),
    next_attempt_at: Type.Union([Timestamp, Type.Null()]),
    created_at: Timestamp,
    attempts: Type.Array(WebhookAttempt),
  },
  { title: 'WebhookDelivery' },
);

export const DeliveryParams = Type.Object({ id: Type.String({ maxLength: 64 }), dlvId: Type.String({ maxLength: 64 }) });
