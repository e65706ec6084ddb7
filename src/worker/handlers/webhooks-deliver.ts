import { deliverWebhookJob, type DeliverJobPayload } from '../../platform/webhooks/deliver-webhook.js';
import type { Ports } from '../../platform/ports/ports.js';
import type { Job } from '../../infra/queue/queue.js';
import type { JobHandler } from '../../infra/queue/runner.js';

/** Job `webhooks.deliver`: one signed POST of a delivery to its endpoint, retried on its schedule. */
export const webhooksDeliver = (deps: Pick<Ports, 'db' | 'clock' | 'config' | 'secrets' | 'notifications' | 'wakeWorker'>): JobHandler =>
  (job) => deliverWebhookJob(deps, job as Job<DeliverJobPayload>);
