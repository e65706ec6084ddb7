import type { Ports } from '../../platform/ports/ports.js';
import { sandboxResetJob } from '../../platform/sandbox/sandbox-reset.js';
import { typedHandler } from '../../infra/queue/job-payload.js';
import type { JobHandler } from '../../infra/queue/runner.js';

/** Job `sandbox.reset`: the sandbox's daily wipe (docs/guides/api.md#contract-sandbox-and-secrets: every day at 04:00 UTC); refused in production. */
export const sandboxReset = (deps: Pick<Ports, 'db' | 'clock' | 'config' | 'notifications'>, requeueRecurring: () => Promise<void>): JobHandler =>
  typedHandler({ day: 'string' }, (job) => sandboxResetJob(deps, job, requeueRecurring));
