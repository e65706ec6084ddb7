import { AUTHORIZE_JOB, CANCEL_JOB } from '../../documents/nfce/services/nfce-deps.js';
import { NFE_AUTHORIZE_JOB, NFE_CANCEL_JOB, NFE_CCE_JOB, NFE_DELIVERY_EVENT_JOB, NFE_REFORM_EVENT_JOB } from '../../documents/nfe/services/nfe-deps.js';
import { NFSE_AUTHORIZE_JOB, NFSE_CANCEL_JOB } from '../../documents/nfse/services/nfse-deps.js';
import { CERTIFICATE_EXPIRY_JOB, scheduleExpiryCheck } from '../../platform/issuers/certificate-expiry.js';
import { mailSender, SEND_MAIL_JOB } from '../../platform/mail/mail-outbox.js';
import { bringForward } from '../../infra/queue/queue.js';
import type { Ports } from '../../platform/ports/ports.js';
import { DELIVER_WEBHOOK_JOB, FANOUT_EVENT_JOB } from '../../platform/webhooks/event-types.js';
import type { JobHandler } from '../../infra/queue/runner.js';
import { certificatesExpiryCheck } from './certificates-expiry-check.js';
import { eventsFanout } from './events-fanout.js';
import { exportsBuild } from './exports-build.js';
import { EXPORT_EXPIRE_JOB, EXPORT_JOB } from '../../platform/exports/export-rules.js';
import { exportsExpire } from './exports-expire.js';
import { scheduleExportExpiry } from '../../platform/exports/expire-exports.js';
import { mailSend } from './mail-send.js';
import { notesBuyerMail } from './notes-buyer-mail.js';
import { BUYER_MAIL_JOB, buyerMailer } from '../../documents/notes/services/send-buyer-mail.js';
import { nfceAuthorize } from './nfce-authorize.js';
import { nfceCancel } from './nfce-cancel.js';
import { nfceFirstAttempt } from './nfce-first-attempt.js';
import { nfceContingencyVoid } from './nfce-contingency-void.js';
import { CONTINGENCY_VOID_JOB } from '../../documents/nfce/services/void-rejected-contingency.js';
import { FIRST_ATTEMPT_JOB } from '../../documents/nfce/services/switch-to-contingency.js';
import { nfeAuthorize } from './nfe-authorize.js';
import { nfeCancel } from './nfe-cancel.js';
import { nfeCce } from './nfe-cce.js';
import { nfeReformEvent } from './nfe-reform-event.js';
import { nfeDeliveryEvent } from './nfe-delivery-event.js';
import { nfeManifest } from './nfe-manifest.js';
import { nfseAuthorize } from './nfse-authorize.js';
import { nfseCancel } from './nfse-cancel.js';
import { nfeReceivedSweep, nfeReceivedSync } from './nfe-received-sync.js';
import { MANIFEST_JOB } from '../../documents/nfe/services/manifest-received.js';
import { RECEIVED_SWEEP_JOB, RECEIVED_SYNC_JOB, scheduleReceivedSweep } from '../../documents/nfe/services/sync-received.js';
import { webhooksDeliver } from './webhooks-deliver.js';
import { sandboxReset } from './sandbox-reset.js';
import { peoplePasswordResetMail } from './people-password-reset-mail.js';
import { PASSWORD_RESET_MAIL_JOB } from '../../platform/people/password-reset.js';
import { billingChargeInvoice, billingClosePeriod, billingTrialEnd } from './billing-close-period.js';
import { CHARGE_INVOICE_JOB } from '../../platform/billing/charge-invoice.js';
import { CLOSE_PERIOD_JOB, scheduleClosePeriod } from '../../platform/billing/invoices.js';
import { TRIAL_END_JOB } from '../../platform/billing/trial.js';
import { periodOf } from '../../platform/billing/period.js';
import { SANDBOX_RESET_JOB, scheduleNextSandboxReset } from '../../platform/sandbox/sandbox-reset.js';

export interface WorkerJobs {
  /** Every job type this gateway runs, each to its handler (one file per job type beside this one). */
  handlers: Record<string, JobHandler>;
  /** Asks for today's certificate check; the per-day dedupe key keeps it one job across workers. */
  start(): Promise<void>;
  close(): void;
}

export function workerJobs(ports: Ports): WorkerJobs {
  const mail = mailSender(ports);
  const buyerMail = buyerMailer(ports);
  let stopWaking: (() => void) | undefined;
  // The recurring jobs that queue their own next run: queued on start, and again after a sandbox reset.
  const scheduleRecurring = async () => {
    const now = ports.clock.now();
    await scheduleExpiryCheck(ports.db, now.toISOString().slice(0, 10), now);
    // The export ZIPs past their time (each run queues the next day's).
    await scheduleExportExpiry(ports.db, now.toISOString().slice(0, 10), now);
    // Received NF-e: the hourly sweep starts each issuer's download (and its own next run).
    if (ports.config.nfeReceivedSync) await scheduleReceivedSweep(ports.db, now, now);
    // The invoices of this billing period when it closes (each close queues the next).
    await scheduleClosePeriod(ports.db, periodOf(now), now);
  };
  return {
    handlers: {
      [AUTHORIZE_JOB]: nfceAuthorize(ports),
      [CANCEL_JOB]: nfceCancel(ports),
      [FIRST_ATTEMPT_JOB]: nfceFirstAttempt(ports),
      [CONTINGENCY_VOID_JOB]: nfceContingencyVoid(ports),
      [NFE_AUTHORIZE_JOB]: nfeAuthorize(ports),
      [NFE_CANCEL_JOB]: nfeCancel(ports),
      [NFE_CCE_JOB]: nfeCce(ports),
      [NFE_REFORM_EVENT_JOB]: nfeReformEvent(ports),
      [NFE_DELIVERY_EVENT_JOB]: nfeDeliveryEvent(ports),
      [MANIFEST_JOB]: nfeManifest(ports),
      [NFSE_AUTHORIZE_JOB]: nfseAuthorize(ports),
      [NFSE_CANCEL_JOB]: nfseCancel(ports),
      [RECEIVED_SYNC_JOB]: nfeReceivedSync(ports),
      [RECEIVED_SWEEP_JOB]: nfeReceivedSweep(ports),
      [FANOUT_EVENT_JOB]: eventsFanout(ports),
      [DELIVER_WEBHOOK_JOB]: webhooksDeliver(ports),
      [SEND_MAIL_JOB]: mailSend(mail),
      [BUYER_MAIL_JOB]: notesBuyerMail(buyerMail),
      [CERTIFICATE_EXPIRY_JOB]: certificatesExpiryCheck(ports),
      [SANDBOX_RESET_JOB]: sandboxReset(ports, scheduleRecurring),
      [CLOSE_PERIOD_JOB]: billingClosePeriod(ports),
      [CHARGE_INVOICE_JOB]: billingChargeInvoice(ports),
      [TRIAL_END_JOB]: billingTrialEnd(ports),
      [PASSWORD_RESET_MAIL_JOB]: peoplePasswordResetMail(ports),
      [EXPORT_JOB]: exportsBuild(ports),
      [EXPORT_EXPIRE_JOB]: exportsExpire(ports),
    },
    async start() {
      await scheduleRecurring();
      // The sandbox's daily wipe (never in production: the call does nothing there).
      await scheduleNextSandboxReset(ports.db, ports.config, ports.clock.now());
      // When an authority endpoint answers again, the contingency notes go at once, oldest first.
      // So do the first attempts still to void or cancel (their backoff reaches 5 minutes).
      stopWaking = ports.breaker.onClosed(() => {
        const now = ports.clock.now();
        void Promise.all([bringForward(ports.db, AUTHORIZE_JOB, 'contingency', now), bringForward(ports.db, FIRST_ATTEMPT_JOB, null, now)])
          .then(([a, b]) => a + b > 0 && ports.wakeWorker(), () => undefined);
      });
    },
    close: () => {
      stopWaking?.();
      mail.close();
      buyerMail.close();
    },
  };
}
