import type { BuyerMailer } from '../../documents/notes/services/send-buyer-mail.js';
import { typedHandler } from '../../infra/queue/job-payload.js';
import type { JobHandler } from '../../infra/queue/runner.js';

/** Job `notes.buyer-mail`: the DANFE and XML of an authorized note, or its cancellation notice, to the buyer. */
export const notesBuyerMail = (mailer: BuyerMailer): JobHandler => typedHandler({ event_id: 'string' }, (job) => mailer.send(job));
