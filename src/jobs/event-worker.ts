import type { AppContext } from '../app-context.js';
import type { Job } from './queue.js';
import type { JobHandler } from './runner.js';
import { mailSender, SEND_MAIL_JOB } from '../platform/mail/mail-outbox.js';
import { deliverWebhookJob, type DeliverJobPayload } from '../platform/webhooks/deliver-webhook.js';
import { DELIVER_WEBHOOK_JOB, FANOUT_EVENT_JOB } from '../platform/webhooks/event-types.js';
import { fanoutEventJob } from '../platform/webhooks/fanout-event.js';
import { CERTIFICATE_EXPIRY_JOB, certificateExpiryJob, scheduleExpiryCheck } from '../platform/issuers/certificate-expiry.js';

/** The worker side of issue 6 (webhooks, mail, certificate alerts): job handlers and the daily schedule. */
export function eventWorker(ctx: AppContext): { handlers: Record<string, JobHandler>; start(): Promise<void>; close(): void } {
  const mail = mailSender(ctx);
  return {
    handlers: {
      [FANOUT_EVENT_JOB]: (job) => fanoutEventJob(ctx, job as Job<{ event_id: string }>),
      [DELIVER_WEBHOOK_JOB]: (job) => deliverWebhookJob(ctx, job as Job<DeliverJobPayload>),
      [SEND_MAIL_JOB]: (job) => mail.send(job as Job<{ mail_id: string }>),
      [CERTIFICATE_EXPIRY_JOB]: (job) => certificateExpiryJob(ctx, job as Job<{ day: string }>),
    },
    // Every worker asks for today's check; the per-day dedupe key keeps it one job.
    async start() {
      const now = ctx.clock.now();
      await scheduleExpiryCheck(ctx.db, now.toISOString().slice(0, 10), now);
    },
    close: () => mail.close(),
  };
}
