import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { createTestApp, type TestApp } from './support/app.js';
import { ManualClock } from './support/clock.js';
import { CERTIFICATE_EXPIRY_JOB } from '../src/platform/issuers/certificate-expiry.js';
import { jobsSettled } from './support/job-queue.js';
import { readyIssuer } from './support/nfce-flow.js';
import { eventually, startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.js';

// The e-CNPJ test certificate of readyIssuer expires at this instant.
const NOT_AFTER = Date.parse('2034-06-05T14:56:44.000Z');
const DAY = 86_400_000;

interface Mail { to: string; raw: string }

describe('certificate-expiry alerts with two workers and a real SMTP server', () => {
  const clock = new ManualClock(new Date(NOT_AFTER - 31 * DAY));
  const mails: Mail[] = [];
  let smtp: SMTPServer;
  let w1: TestApp;
  let w2: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, done) {
        let raw = '';
        stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
        stream.on('end', () => {
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), raw });
          done();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const env = { SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}` };
    w1 = await createTestApp({ role: 'all', clock, env });
    w2 = await createTestApp({ role: 'all', clock, env }); // a second worker on the same database and queue
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await w1.runtime.close();
    await w2.runtime.close();
    await receiver.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('sends each threshold (30, 14, 7, 1 days, expired) exactly once: one webhook, one e-mail, one notification', async () => {
    const { auth } = await w1.newAccount();
    const email = `alerts-${Date.now()}@example.com`;
    await w1.app.inject({ method: 'PATCH', url: '/v1/account', headers: auth, payload: { notification_email: email } });
    const issuerId = await readyIssuer(w1, auth);
    const hook = (await w1.app.inject({
      method: 'POST', url: '/v1/webhooks', headers: auth, payload: { url: receiver.url, event_types: ['certificate.expiring', 'certificate.expired'] },
    })).json();
    const mine = (r: { body: string }) => r.body.includes(issuerId);
    const myMails = () => mails.filter((m) => m.to === email);
    const myNotes = async () =>
      (await w1.app.inject({ method: 'GET', url: '/v1/notifications?limit=100', headers: auth })).json().data.filter((n: { type: string }) => n.type.startsWith('certificate.'));
    const workers = () => [w1, w2, ...restarted];
    const poke = () => workers().forEach((w) => w.runtime.runner!.poke());
    // Every job due at the current (test) time has run: the clock may move on. Without this, a mail
    // or webhook still in flight when the clock jumps hours ahead has an expired lease, another worker
    // takes it over and it is sent twice (seen under load: the 14-day e-mail arrived again where the
    // 7-day one was expected).
    const settled = () => jobsSettled({ db: w1.db, runners: workers().map((w) => w.runtime.runner) }, clock);
    const mailSubjects = () => myMails().map((m) => /^Subject: (.*)$/m.exec(m.raw)?.[1] ?? m.raw.slice(0, 200));
    const restarted: TestApp[] = [];

    const steps: Array<[number, number, string]> = [
      [30, 30, 'certificate.expiring'],
      [14, 14, 'certificate.expiring'],
      [7, 7, 'certificate.expiring'],
      [1, 1, 'certificate.expiring'],
      [0, 0, 'certificate.expired'],
    ];
    for (const [daysBefore, threshold, type] of steps) {
      clock.set(new Date(NOT_AFTER - daysBefore * DAY + (daysBefore === 0 ? 60_000 : 0)));
      poke();
      // Whatever order the webhook, the e-mail and the notification arrive in: wait for each one of this threshold.
      const [got] = await receiver.waitFor(1, (r) => mine(r) && JSON.parse(r.body).data?.threshold_days === threshold, 30_000);
      expect(JSON.parse(got!.body)).toMatchObject({ type, data: { issuer_id: issuerId, threshold_days: threshold, serial_number: expect.any(String), not_after: new Date(NOT_AFTER).toISOString() } });
      // Signed with the endpoint's secret (the timestamp is the controlled clock's, so check the HMAC itself).
      const ts = new Date(Number(got!.headers['webhook-timestamp']) * 1000);
      expect(got!.headers['webhook-signature']).toBe(new Webhook(hook.secret).sign(String(got!.headers['webhook-id']), ts, got!.body));
      const subject = daysBefore === 0 ? /^Certificate of .* expired$/ : new RegExp(`^Certificate of .* expires in ${daysBefore} days?$`);
      await eventually(async () => mailSubjects().some((s) => subject.test(s)), 30_000, () => `the ${threshold}-day e-mail (got: ${mailSubjects().join(' | ')})`);
      await eventually(async () => (await myNotes()).some((n: { data: { threshold_days: number } }) => n.data.threshold_days === threshold), 30_000, `the ${threshold}-day notification`);
      await settled();
      // Later checks the same day, by either worker, change nothing.
      clock.advance(3_600_000);
      poke();
      await settled();
    }
    // A third worker starting up (a restart) and a day more of checks: still exactly one of each.
    const w3 = await createTestApp({ role: 'all', clock, env: { SMTP_URL: w1.config.smtpUrl! } });
    restarted.push(w3);
    clock.advance(DAY);
    poke();
    // The next day's check has run (and, had it raised anything, its webhooks and e-mails are out).
    const nextDay = clock.now().toISOString().slice(0, 10);
    const checks = async () =>
      (await w1.db.query<{ c: string }>(`SELECT dedupe_key || ' ' || state || ' run_at ' || run_at::text AS c FROM jobs WHERE kind = $1 ORDER BY run_at`, [CERTIFICATE_EXPIRY_JOB])).rows.map((r) => r.c);
    let seen: string[] = [];
    await eventually(
      async () => (seen = await checks()).some((c) => c.startsWith(`certificate-expiry:${nextDay} done`)),
      30_000,
      () => `the certificate check of ${nextDay} (clock ${clock.now().toISOString()}; checks: ${seen.join('; ')})`,
    );
    await settled();
    await w3.runtime.close();

    // One alert claimed per threshold, and exactly one webhook (each with an id of its own) and one
    // e-mail for each, in whatever order they arrived.
    const alerts = await w1.db.query<{ threshold: number }>('SELECT threshold FROM certificate_alerts WHERE issuer_id = $1 ORDER BY threshold', [issuerId]);
    expect(alerts.rows.map((r) => r.threshold)).toEqual([0, 1, 7, 14, 30]);
    const hooks = receiver.received.filter(mine);
    expect(hooks.map((r) => `${JSON.parse(r.body).type}:${JSON.parse(r.body).data.threshold_days}`).sort()).toEqual([
      'certificate.expired:0', 'certificate.expiring:1', 'certificate.expiring:14', 'certificate.expiring:30', 'certificate.expiring:7',
    ]);
    expect(new Set(hooks.map((r) => r.headers['webhook-id'])).size).toBe(5);
    expect(mailSubjects().map((s) => s.replace(/^Certificate of .* (expire)/, '$1')).sort()).toEqual([
      'expired', 'expires in 1 day', 'expires in 14 days', 'expires in 30 days', 'expires in 7 days',
    ]);
    const notes = await myNotes();
    expect(notes.map((n: { data: { threshold_days: number } }) => n.data.threshold_days).sort((a: number, b: number) => a - b)).toEqual([0, 1, 7, 14, 30]);
    const sandboxMail = (await w1.app.inject({ method: 'GET', url: '/v1/sandbox/mail', headers: auth })).json().data;
    expect(sandboxMail.filter((m: { state: string }) => m.state === 'sent')).toHaveLength(5);
    expect(sandboxMail).toHaveLength(5);
  }, 180_000);
});
