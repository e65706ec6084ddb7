import type { BuyerMailer } from '../../documents/notes/services/send-buyer-mail.js';
import type { Job } from '../../infra/queue/queue.js';
import type { JobHandler } from '../../infra/queue/runner.js';

/** Job `notes.buyer-mail`: the DANFE and XML of an authorized note, or its cancellation notice, to the buyer. */
export const notesBuyerMail = (mailer: BuyerMailer): JobHandler => (job) => mailer.send(job as Job<{ event_id: string }>);
