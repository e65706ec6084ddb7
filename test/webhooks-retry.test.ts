import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';
import { ManualClock } from './support/clock.js';
import { jobsSettled } from './support/job-queue.js';
import { eventually, startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.js';
import { recordEvent } from '../src/infra/storage/repositories/outbox-repository.js';
import { RETRY_DELAYS_MS } from '../src/platform/webhooks/retry-schedule.js';

let t: TestApp;
let receiver: WebhookReceiver;
const clock = new ManualClock(new Date());
beforeAll(async () => {
  t = await createTestApp({ role: 'all', clock });
  receiver = await startWebhookReceiver();
  receiver.status = () => 503;
});
afterAll(async () => {
  await t.runtime.close();
  await receiver.close();
});

const H = 3_600_000;
// Everything due at the test clock's time has run (and a worker has looked): before the clock moves,
// and before a check that nothing was sent.
const settled = () => jobsSettled({ db: t.db, runners: [t.runtime.runner] }, clock);

describe('webhooks: retries on the documented schedule', () => {
  it('retries a failing receiver 5 s, 30 s, 2 min ... then every 8 h until 72 h, marks the delivery failed, disables the endpoint and tells the owner', async () => {
    const { auth, accountId } = await t.newAccount();
    await t.app.inject({ method: 'PATCH', url: '/v1/account', headers: auth, payload: { notification_email: 'owner@example.com' } });
    const hook = (await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: auth, payload: { url: receiver.url, event_types: ['*'] } })).json();
    // An outbox event as the NFC-e services write it (same transaction as the change).
    const eventId = await recordEvent(t.db, { accountId, type: 'nfce.canceled', subjectType: 'nfce', subjectId: 'nfce_retrytest', data: { id: 'nfce_retrytest', status: 'canceled' }, at: clock.now() });
    const start = clock.now().getTime();

    const delivery = async () => (await t.app.inject({ method: 'GET', url: `/v1/webhooks/${hook.id}/deliveries`, headers: auth })).json().data[0];
    const gaps: number[] = [];
    let attempts = 0;
    for (;;) {
      attempts++;
      await eventually(async () => (await delivery())?.attempt_count === attempts, 20_000, `attempt ${attempts}`);
      // The attempt's job is back in the queue for its next time: nothing is in flight when the clock
      // moves (a job still running then would lose its lease and be sent twice).
      await settled();
      const d = await delivery();
      expect(d.attempt_count).toBe(attempts);
      expect(receiver.received).toHaveLength(attempts);
      expect(receiver.received.every((r) => r.headers['webhook-id'] === eventId)).toBe(true);
      const last = d.attempts[attempts - 1];
      expect(last).toMatchObject({ attempt: attempts, trigger: 'automatic', status_code: 503, response_excerpt: 'receiver says 503' });
      if (d.state !== 'pending') {
        expect(d.state).toBe('failed');
        expect(last.next_retry_at).toBeNull();
        break;
      }
      expect(last.next_retry_at).toBe(d.next_attempt_at);
      const next = new Date(d.next_attempt_at).getTime();
      gaps.push(next - clock.now().getTime());
      // Nothing is sent before it is due, even when the worker looks.
      clock.set(new Date(next - 1_000));
      await settled();
      expect(receiver.received).toHaveLength(attempts);
      clock.set(new Date(next));
      t.runtime.runner!.poke();
    }

    const expected = [...RETRY_DELAYS_MS, ...Array(7).fill(8 * H)];
    // 1 + 9 growing delays (~15.7 h) + every 8 h within 72 h: 16 or 17 attempts, as the jitter falls.
    expect(attempts).toBeGreaterThanOrEqual(16);
    expect(attempts).toBeLessThanOrEqual(17);
    expect(gaps).toHaveLength(attempts - 1);
    gaps.forEach((g, i) => {
      expect(g, `gap ${i + 1}`).toBeGreaterThanOrEqual(expected[i]! * 0.9 - 1);
      expect(g, `gap ${i + 1}`).toBeLessThanOrEqual(expected[i]! * 1.1 + 1);
    });
    const elapsed = clock.now().getTime() - start;
    expect(elapsed).toBeGreaterThan(60 * H);
    expect(elapsed).toBeLessThanOrEqual(72 * H);

    // 3 days of failure: endpoint disabled, owner notified in-app and by e-mail (captured in the sandbox).
    const endpoint = (await t.app.inject({ method: 'GET', url: `/v1/webhooks/${hook.id}`, headers: auth })).json();
    expect(endpoint.enabled).toBe(false);
    expect(endpoint.disabled_reason).toContain('no 2xx');
    const notesRes = await t.app.inject({ method: 'GET', url: '/v1/notifications', headers: auth });
    expect(notesRes.statusCode, notesRes.body).toBe(200);
    const notes = notesRes.json().data;
    expect(notes.filter((n: { type: string }) => n.type === 'webhook.disabled')).toEqual([
      expect.objectContaining({ read: false, data: expect.objectContaining({ webhook_id: hook.id }) }),
    ]);
    const mail = await eventually(async () => {
      const m = (await t.app.inject({ method: 'GET', url: '/v1/sandbox/mail', headers: auth })).json().data;
      return m.length === 1 && m[0].state === 'captured' ? m : null;
    });
    expect(mail[0]).toMatchObject({ to: 'owner@example.com', subject: expect.stringContaining(receiver.url) });

    // A disabled endpoint gets no new deliveries.
    await recordEvent(t.db, { accountId, type: 'nfce.canceled', subjectType: 'nfce', subjectId: 'nfce_other', data: {}, at: clock.now() });
    await settled(); // the event's fan-out has run
    expect(receiver.received).toHaveLength(attempts);
    expect((await t.app.inject({ method: 'GET', url: `/v1/webhooks/${hook.id}/deliveries`, headers: auth })).json().data).toHaveLength(1);
  }, 180_000); // 17 attempts, each waited for: a last guard for a loaded machine

  it('delivers events about one record in order: a later one waits for the earlier pending one', async () => {
    const { auth, accountId } = await t.newAccount();
    const ok = await startWebhookReceiver();
    let fail = true;
    ok.status = () => (fail ? 500 : 200);
    const hook = (await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: auth, payload: { url: ok.url, event_types: ['*'] } })).json();
    await recordEvent(t.db, { accountId, type: 'nfce.authorized', subjectType: 'nfce', subjectId: 'nfce_order', data: { n: 1 }, at: clock.now() });
    await ok.waitFor(1);
    await recordEvent(t.db, { accountId, type: 'nfce.canceled', subjectType: 'nfce', subjectId: 'nfce_order', data: { n: 2 }, at: clock.now() });
    await settled(); // the cancel's delivery has been tried
    expect(ok.received).toHaveLength(1); // the cancel waits behind the authorization's retry
    fail = false;
    // Second by second (letting the worker finish at each step) until both went out.
    clock.advance(5_000);
    for (let step = 0; ok.received.length < 3; step++) {
      if (step > 60) throw new Error(`after 60 s of test time: ${ok.received.map((r) => JSON.parse(r.body).type).join(', ')}`);
      clock.advance(1_000);
      await settled();
    }
    expect(ok.received.map((r) => JSON.parse(r.body).type)).toEqual(['nfce.authorized', 'nfce.authorized', 'nfce.canceled']);
    await ok.close();
    void hook;
  }, 60_000);
});
