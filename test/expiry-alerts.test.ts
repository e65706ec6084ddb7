import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { createTestApp, type TestApp } from './support/app.js';
import { ManualClock } from './support/clock.js';
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
    const poke = () => [w1, w2].forEach((w) => w.runtime.runner!.poke());

    const steps: Array<[number, number, string]> = [
      [30, 30, 'certificate.expiring'],
      [14, 14, 'certificate.expiring'],
      [7, 7, 'certificate.expiring'],
      [1, 1, 'certificate.expiring'],
      [0, 0, 'certificate.expired'],
    ];
    for (const [i, [daysBefore, threshold, type]] of steps.entries()) {
      clock.set(new Date(NOT_AFTER - daysBefore * DAY + (daysBefore === 0 ? 60_000 : 0)));
      poke();
      const got = await receiver.waitFor(i + 1, mine, 10_000);
      const last = JSON.parse(got[i]!.body);
      expect(last).toMatchObject({ type, data: { issuer_id: issuerId, threshold_days: threshold, serial_number: expect.any(String), not_after: new Date(NOT_AFTER).toISOString() } });
      // Signed with the endpoint's secret (the timestamp is the controlled clock's, so check the HMAC itself).
      const ts = new Date(Number(got[i]!.headers['webhook-timestamp']) * 1000);
      expect(got[i]!.headers['webhook-signature']).toBe(new Webhook(hook.secret).sign(String(got[i]!.headers['webhook-id']), ts, got[i]!.body));
      await eventually(async () => myMails().length === i + 1, 10_000, `e-mail ${i + 1}`);
      expect(myMails()[i]!.raw).toMatch(daysBefore === 0 ? /expired/ : new RegExp(`expires in ${daysBefore} day`));
      await eventually(async () => (await myNotes()).length === i + 1, 5_000, `notification ${i + 1}`);
      // Later checks the same day, by either worker, change nothing.
      clock.advance(3_600_000);
      poke();
    }
    // A third worker starting up (a restart) and a day more of checks: still exactly one of each.
    const w3 = await createTestApp({ role: 'all', clock, env: { SMTP_URL: w1.config.smtpUrl! } });
    clock.advance(DAY);
    poke();
    w3.runtime.runner!.poke();
    await new Promise((r) => setTimeout(r, 1_000));
    await w3.runtime.close();

    expect(receiver.received.filter(mine).map((r) => `${JSON.parse(r.body).type}:${JSON.parse(r.body).data.threshold_days}`)).toEqual([
      'certificate.expiring:30', 'certificate.expiring:14', 'certificate.expiring:7', 'certificate.expiring:1', 'certificate.expired:0',
    ]);
    expect(myMails()).toHaveLength(5);
    const notes = await myNotes();
    expect(notes).toHaveLength(5);
    expect(notes.map((n: { data: { threshold_days: number } }) => n.data.threshold_days).sort((a: number, b: number) => a - b)).toEqual([0, 1, 7, 14, 30]);
    const sandboxMail = (await w1.app.inject({ method: 'GET', url: '/v1/sandbox/mail', headers: auth })).json().data;
    expect(sandboxMail.filter((m: { state: string }) => m.state === 'sent')).toHaveLength(5);
  });
});
