import { expireExportsJob } from '../../platform/exports/expire-exports.js';
import type { Ports } from '../../platform/ports/ports.js';
import type { Job } from '../../infra/queue/queue.js';
import type { JobHandler } from '../../infra/queue/runner.js';

/** Job `exports.expire`: the daily end of the export ZIPs kept past their time. */
export const exportsExpire = (deps: Pick<Ports, 'db' | 'clock'>): JobHandler => (job) => expireExportsJob(deps, job as Job<{ day: string }>);
