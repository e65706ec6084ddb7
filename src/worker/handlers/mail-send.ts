import type { MailSender } from '../../platform/mail/mail-outbox.js';
import { typedHandler } from '../../infra/queue/job-payload.js';
import type { JobHandler } from '../../infra/queue/runner.js';

/** Job `mail.send`: hand one stored e-mail to SMTP (or capture it in the sandbox). */
export const mailSend = (sender: MailSender): JobHandler => typedHandler({ mail_id: 'string' }, (job) => sender.send(job));
