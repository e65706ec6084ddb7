/** docs/decisions.md#api-conventions webhook event types (NF-e and NFS-e add theirs here). `*` subscribes to all of them. */
export const WEBHOOK_EVENT_TYPES = [
  'nfce.authorized',
  'nfce.rejected',
  'nfce.denied',
  'nfce.canceled',
  // Issued offline, authorized once transmitted,
  // refused by the authority, and near its transmission deadline.
  'nfce.contingency_issued',
  'nfce.contingency_authorized',
  'nfce.contingency_failed',
  'nfce.contingency_deadline',
  // A point of sale handed over an NFC-e it issued offline (POST /v1/nfce/offline); transmission follows.
  'nfce.contingency_received',
  'nfe.authorized',
  'nfe.rejected',
  'nfe.denied',
  'nfe.canceled',
  'nfe.corrected',
  'nfe.received',
  // A delivery event (proof, failure or their cancellation; docs/fiscal/delivery-events.md) registered or refused.
  'nfe.delivery_event_registered',
  'nfe.delivery_event_rejected',
  // An NF-e issued in EPEC: its EPEC registered at the Ambiente Nacional, the DANFE printable with its protocol (docs/guides/nfe.md).
  'nfe.epec_registered',
  // An SP NFC-e issued in EPEC: its EPEC registered with SP's EPEC service, the DANFE printable (docs/guides/nfce.md).
  'nfce.epec_registered',
  'nfse.authorized',
  'nfse.rejected',
  'nfse.canceled',
  'inutilization.completed',
  'certificate.expiring',
  'certificate.expired',
  'webhook.test',
  // Billing (platform/billing).
  'billing.invoice_created',
  'billing.payment_succeeded',
  'billing.payment_failed',
  'billing.quota_reached',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The Standard Webhooks body: the outbox event with the full record at the time of the event. */
export function webhookPayload(e: { id: string; type: string; created_at: Date; data: unknown }): string {
  return JSON.stringify({ id: e.id, type: e.type, created_at: e.created_at.toISOString(), data: e.data });
}

// Job kinds of the event pipeline. FANOUT is also written by the trigger of migration 0005.
export const FANOUT_EVENT_JOB = 'events.fanout';
export const DELIVER_WEBHOOK_JOB = 'webhooks.deliver';
