import { deliverWebhookJob } from '../../platform/webhooks/deliver-webhook.js';
import type { Ports } from '../../platform/ports/ports.js';
import { typedHandler } from '../../infra/queue/job-payload.js';
import type { JobHandler } from '../../infra/queue/runner.js';

/** Job `webhooks.deliver`: one signed POST of a delivery to its endpoint, retried on its schedule. */
export const webhooksDeliver = (deps: Pick<Ports, 'db' | 'clock' | 'config' | 'secrets' | 'notifications' | 'wakeWorker'>): JobHandler =>
  typedHandler({ delivery_id: 'string', trigger: ['automatic', 'replay', 'test'] }, (job) => deliverWebhookJob(deps, job));
