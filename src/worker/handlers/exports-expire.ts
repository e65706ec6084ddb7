import { expireExportsJob } from '../../platform/exports/expire-exports.js';
import type { Ports } from '../../platform/ports/ports.js';
import { typedHandler } from '../../infra/queue/job-payload.js';
import type { JobHandler } from '../../infra/queue/runner.js';

/** Job `exports.expire`: the daily end of the export ZIPs kept past their time. */
export const exportsExpire = (deps: Pick<Ports, 'db' | 'clock'>): JobHandler => typedHandler({ day: 'string' }, (job) => expireExportsJob(deps, job));
