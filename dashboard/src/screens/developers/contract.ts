import type { paths } from '../../api/client.js';

// The shapes of the developers area, read from the SDK: the SDK's contract is the dashboard's.
type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;

export type Application = Json<paths['/v1/applications']['get']['responses'][200]>['data'][number];
export type Scope = Json<paths['/v1/applications']['post']['requestBody']>['scopes'][number];
export type WebhookEndpoint = Json<paths['/v1/webhooks/{id}']['get']['responses'][200]>;
export type EventType = Json<paths['/v1/webhooks']['post']['requestBody']>['event_types'][number];
export type Delivery = Json<paths['/v1/webhooks/{id}/deliveries']['get']['responses'][200]>['data'][number];
export type Attempt = Delivery['attempts'][number];
export type Mail = Json<paths['/v1/sandbox/mail']['get']['responses'][200]>['data'][number];

/** Every value of a string union, checked both ways: a scope or event the API adds fails typecheck here. */
function allOf<U extends string>() {
  return <const L extends readonly U[]>(list: L & ([U] extends [L[number]] ? unknown : { missing: Exclude<U, L[number]> })) => list;
}

/** The scopes POST /v1/applications accepts, `*` first, in the API's order. */
export const SCOPES = allOf<Scope>()([
  '*', 'account:read', 'account:write', 'applications:read', 'applications:write', 'issuers:read', 'issuers:write',
  'nfce:read', 'nfce:write', 'nfe:read', 'nfe:write', 'nfse:read', 'nfse:write', 'webhooks:read', 'webhooks:write',
  'notifications:read', 'notifications:write', 'audit:read', 'members:read', 'members:write', 'billing:read', 'billing:write',
  'exports:read', 'exports:write',
]);

/** The event types a webhook endpoint subscribes to (POST /v1/webhooks), `*` first. */
export const EVENT_TYPES = allOf<EventType>()([
  '*',
  'nfce.authorized', 'nfce.rejected', 'nfce.denied', 'nfce.canceled', 'nfce.contingency_issued', 'nfce.contingency_received',
  'nfce.contingency_authorized', 'nfce.contingency_failed', 'nfce.contingency_deadline', 'nfce.epec_registered',
  'nfe.authorized', 'nfe.rejected', 'nfe.denied', 'nfe.canceled', 'nfe.corrected', 'nfe.received', 'nfe.delivery_event_registered', 'nfe.delivery_event_rejected',
  'nfe.epec_registered',
  'nfse.authorized', 'nfse.rejected', 'nfse.canceled',
  'inutilization.completed', 'certificate.expiring', 'certificate.expired', 'webhook.test',
  'billing.invoice_created', 'billing.payment_succeeded', 'billing.payment_failed', 'billing.quota_reached',
]);
