import { randomBytes } from 'node:crypto';
import type { Clock } from '../../src/kernel/clock.js';
import { enqueueJob } from '../../src/infra/queue/queue.js';
import type { JobRunner } from '../../src/infra/queue/runner.js';
import { SEND_MAIL_JOB } from '../../src/platform/mail/mail-outbox.js';
import { CERTIFICATE_EXPIRY_JOB } from '../../src/platform/issuers/certificate-expiry.js';
import type { Db } from '../../src/infra/storage/db.js';
import { DELIVER_WEBHOOK_JOB, FANOUT_EVENT_JOB } from '../../src/platform/webhooks/event-types.js';
import { eventually } from './webhook-receiver.js';

/** The event worker's jobs (webhooks, e-mail, certificate alerts): what a test of those waits for. */
export const EVENT_JOB_KINDS = [FANOUT_EVENT_JOB, DELIVER_WEBHOOK_JOB, SEND_MAIL_JOB, CERTIFICATE_EXPIRY_JOB];

/**
 * Resolves once the job runners have done everything due at the test clock's current time: a worker
 * has claimed at this time (a no-op job queued now, a mail job for a mail that does not exist, is
 * done) and no job of `kinds` is running or due. A test that moves a ManualClock waits for this
 * before each move: a job still in flight when the clock jumps past its lease is handed out again
 * and runs twice (at least once, by design), sending a webhook or an e-mail twice; and a check that
 * nothing happened ("not before it is due") needs a worker to have looked, not a sleep.
 */
export async function jobsSettled(
  t: { db: Db; runners: Array<JobRunner | undefined> },
  clock: Clock,
  o: { kinds?: readonly string[]; ms?: number } = {},
): Promise<void> {
  const kinds = o.kinds ?? EVENT_JOB_KINDS;
  const now = clock.now();
  const probe = `mail_settle_${randomBytes(8).toString('hex')}`;
  await enqueueJob(t.db, SEND_MAIL_JOB, { mail_id: probe }, { runAt: now, now });
  let last = '';
  await eventually(
    async () => {
      for (const r of t.runners) r?.poke();
      const seen = await t.db.query<{ probe_done: boolean; busy: string | null }>(
        `SELECT EXISTS (SELECT 1 FROM jobs WHERE kind = $1 AND payload->>'mail_id' = $2 AND state = 'done') AS probe_done,
                (SELECT string_agg(kind || ':' || state, ', ') FROM jobs
                  WHERE kind = ANY($3) AND (state = 'running' OR (state = 'pending' AND run_at <= $4))) AS busy`,
        [SEND_MAIL_JOB, probe, kinds, now],
      );
      const row = seen.rows[0]!;
      last = `probe ${row.probe_done ? 'done' : 'not run yet'}; running or due: ${row.busy ?? 'none'}`;
      return row.probe_done && row.busy === null;
    },
    o.ms ?? 30_000,
    () => `the job runners to settle at ${now.toISOString()} (${last})`,
  );
}
