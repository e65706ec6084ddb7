import { buildExportJob } from '../../platform/exports/build-export.js';
import type { Ports } from '../../platform/ports/ports.js';
import { typedHandler } from '../../infra/queue/job-payload.js';
import type { JobHandler } from '../../infra/queue/runner.js';

/** Job `exports.build`: a month of one issuer's XMLs into a ZIP (platform/exports/build-export.ts). */
export const exportsBuild = (deps: Pick<Ports, 'db' | 'clock'>): JobHandler => typedHandler({ exportId: 'string' }, (job, ctx) => buildExportJob(deps, job, ctx.workerId));
