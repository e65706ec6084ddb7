import { deliveryEventJob } from '../../documents/nfe/services/delivery-event-nfe.js';
import type { AuthorityDeps } from '../../documents/notes/services/note-family.js';
import { typedHandler } from '../../infra/queue/job-payload.js';
import type { JobHandler } from '../../infra/queue/runner.js';

/** Job `nfe.delivery_event`: send a delivery event (110130/110131 to the Ambiente Nacional, 110192/110193 to SVRS). */
export const nfeDeliveryEvent = (deps: AuthorityDeps): JobHandler => typedHandler({ eventId: 'string' }, (job) => deliveryEventJob(deps, job));
