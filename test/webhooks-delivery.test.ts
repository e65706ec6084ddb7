import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { createTestApp, type TestApp } from './support/app.js';
import { emitSettled, readyIssuer, sale } from './support/nfce-flow.js';
import { eventually, startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.js';

let t: TestApp;
let receiver: WebhookReceiver;
beforeAll(async () => {
  t = await createTestApp({ role: 'all' });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await t.runtime.close();
  await receiver.close();
});

describe('webhooks: nfce.authorized to a receiver on 127.0.0.1', () => {
  it('delivers a Standard Webhooks signed nfce.authorized with the full record; test and replay work; deliveries list every attempt', async () => {
    const { auth } = await t.newAccount();
    const issuerId = await readyIssuer(t, auth);
    const created = await t.app.inject({
      method: 'POST', url: '/v1/webhooks', headers: auth,
      payload: { url: receiver.url, event_types: ['nfce.authorized'], description: 'POS back office' },
    });
    expect(created.statusCode).toBe(201);
    const hook = created.json();
    expect(hook).toMatchObject({ object: 'webhook_endpoint', url: receiver.url, event_types: ['nfce.authorized'], enabled: true });
    expect(hook.id).toMatch(/^whk_/);
    expect(hook.secret).toMatch(/^whsec_/);
    // The secret is shown once: never in reads, never in clear in the database.
    const listed = (await t.app.inject({ method: 'GET', url: '/v1/webhooks', headers: auth })).json();
    expect(listed.data).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(hook.secret);
    const stored = await t.db.query<{ secret_blob: string }>('SELECT secret_blob FROM webhook_endpoints WHERE id = $1', [hook.id]);
    expect(stored.rows[0]!.secret_blob).not.toContain(hook.secret.slice(6, 30));

    const { note } = await emitSettled(t, auth, sale(issuerId));
    expect(note.status).toBe('authorized');

    const [got] = await receiver.waitFor(1, (r) => r.body.includes(note.id));
    const verified = new Webhook(hook.secret).verify(got!.body, got!.headers as Record<string, string>) as Record<string, unknown>;
    expect(verified).toMatchObject({ type: 'nfce.authorized', data: { id: note.id, status: 'authorized', access_key: note.access_key, protocolo: note.protocolo } });
    expect(verified.id).toMatch(/^evt_/);
    expect(got!.headers['webhook-id']).toBe(verified.id);
    expect(got!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    // A wrong secret does not verify: the signature really binds the body to this endpoint's secret.
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(got!.body, got!.headers as Record<string, string>)).toThrow();

    const deliveries = await eventually(async () => {
      const body = (await t.app.inject({ method: 'GET', url: `/v1/webhooks/${hook.id}/deliveries`, headers: auth })).json();
      return body.data[0]?.state === 'succeeded' ? body : null;
    });
    expect(deliveries.data).toHaveLength(1);
    const delivery = deliveries.data[0];
    expect(delivery).toMatchObject({ object: 'webhook_delivery', event_id: verified.id, event_type: 'nfce.authorized', state: 'succeeded', attempt_count: 1 });
    expect(delivery.attempts).toEqual([
      expect.objectContaining({ attempt: 1, trigger: 'automatic', status_code: 200, response_excerpt: 'ok', next_retry_at: null, error: null }),
    ]);
    expect(delivery.attempts[0].latency_ms).toBeGreaterThanOrEqual(0);

    // Test event: webhook.test to this endpoint only, signed the same way.
    const test = await t.app.inject({ method: 'POST', url: `/v1/webhooks/${hook.id}/test`, headers: auth });
    expect(test.statusCode).toBe(202);
    const [ping] = await receiver.waitFor(1, (r) => r.body.includes('"webhook.test"'));
    expect(new Webhook(hook.secret).verify(ping!.body, ping!.headers as Record<string, string>)).toMatchObject({ type: 'webhook.test', data: { webhook_id: hook.id } });

    // Replay: the same event (same webhook-id and body) as a new attempt of the same delivery.
    const replay = await t.app.inject({ method: 'POST', url: `/v1/webhooks/${hook.id}/deliveries/${delivery.id}/replay`, headers: auth });
    expect(replay.statusCode).toBe(202);
    const again = await receiver.waitFor(2, (r) => r.body.includes(note.id));
    expect(again[1]!.headers['webhook-id']).toBe(verified.id);
    expect(again[1]!.body).toBe(got!.body);
    new Webhook(hook.secret).verify(again[1]!.body, again[1]!.headers as Record<string, string>);
    const after = await eventually(async () => {
      const body = (await t.app.inject({ method: 'GET', url: `/v1/webhooks/${hook.id}/deliveries`, headers: auth })).json();
      const d = body.data.find((x: { id: string }) => x.id === delivery.id);
      return d?.attempts.length === 2 ? body : null;
    });
    expect(after.data.map((d: { event_type: string }) => d.event_type)).toEqual(['webhook.test', 'nfce.authorized']);
    expect(after.data[1].attempts.map((a: { trigger: string; status_code: number }) => [a.trigger, a.status_code])).toEqual([['automatic', 200], ['replay', 200]]);
    expect(after.data[0].attempts.map((a: { trigger: string }) => a.trigger)).toEqual(['test']);

    // Another account sees none of it.
    const other = await t.newAccount();
    expect((await t.app.inject({ method: 'GET', url: `/v1/webhooks/${hook.id}/deliveries`, headers: other.auth })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: `/v1/webhooks/${hook.id}/deliveries/${delivery.id}/replay`, headers: other.auth })).statusCode).toBe(404);
  });

  it('refuses non-http URLs and private targets outside the allow-list; deleted endpoints get nothing', async () => {
    const { auth } = await t.newAccount();
    for (const url of ['ftp://127.0.0.1/x', 'http://10.0.0.5/hook', 'http://169.254.169.254/latest/meta-data', 'http://[::1]:8080/x', 'http://user:pw@example.com/']) {
      const r = await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: auth, payload: { url, event_types: ['*'] } });
      expect(r.statusCode, url).toBe(422);
      expect(r.json().details[0].field).toBe('url');
    }
    const bad = await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: auth, payload: { url: receiver.url, event_types: ['nfce.unknown'] } });
    expect(bad.statusCode).toBe(422);
    const hook = (await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: auth, payload: { url: receiver.url, event_types: ['*'] } })).json();
    const del = await t.app.inject({ method: 'DELETE', url: `/v1/webhooks/${hook.id}`, headers: auth });
    expect(del.json()).toEqual({ id: hook.id, object: 'webhook_endpoint', deleted: true });
    expect((await t.app.inject({ method: 'GET', url: `/v1/webhooks/${hook.id}`, headers: auth })).statusCode).toBe(404);
  });
});
