import type { MailSender } from '../../platform/mail/mail-outbox.js';
import type { Job } from '../../infra/queue/queue.js';
import type { JobHandler } from '../../infra/queue/runner.js';

/** Job `mail.send`: hand one stored e-mail to SMTP (or capture it in the sandbox). */
export const mailSend = (sender: MailSender): JobHandler => (job) => sender.send(job as Job<{ mail_id: string }>);
