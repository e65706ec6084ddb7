import { fanoutEventJob } from '../../platform/webhooks/fanout-event.js';
import type { Ports } from '../../platform/ports/ports.js';
import { typedHandler } from '../../infra/queue/job-payload.js';
import type { JobHandler } from '../../infra/queue/runner.js';

/** Job `events.fanout`: turn one event into a delivery per subscribed webhook endpoint and a notification. */
export const eventsFanout = (deps: Pick<Ports, 'db' | 'clock' | 'notifications' | 'wakeWorker'>): JobHandler =>
  typedHandler({ event_id: 'string' }, (job) => fanoutEventJob(deps, job));
