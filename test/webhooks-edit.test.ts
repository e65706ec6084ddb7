// PATCH /v1/webhooks/:id changes an endpoint; one disabled (after 3 days of failures,
// or by hand) can be enabled again and then receives events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';
import { emitSettled, readyIssuer, sale } from './support/nfce-flow.js';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.js';
import { disableEndpoint } from '../src/infra/storage/repositories/webhook-repository.js';

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

describe('PATCH /v1/webhooks/:id', () => {
  it('changes url, event types and description; the secret stays; bad input is a 422 naming the field', async () => {
    const { auth } = await t.newAccount();
    const created = (await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: auth, payload: { url: 'https://example.com/a', event_types: ['nfce.rejected'] } })).json();
    const secretBefore = (await t.db.query<{ secret_blob: string }>('SELECT secret_blob FROM webhook_endpoints WHERE id = $1', [created.id])).rows[0]!.secret_blob;
    const patched = await t.app.inject({
      method: 'PATCH', url: `/v1/webhooks/${created.id}`, headers: auth,
      payload: { url: receiver.url, event_types: ['nfce.authorized', 'nfce.contingency_issued'], description: 'Back office' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ id: created.id, url: receiver.url, event_types: ['nfce.authorized', 'nfce.contingency_issued'], description: 'Back office', enabled: true });
    expect(JSON.stringify(patched.json())).not.toContain('whsec_');
    expect((await t.app.inject({ method: 'GET', url: `/v1/webhooks/${created.id}`, headers: auth })).json()).toMatchObject({ url: receiver.url, description: 'Back office' });
    expect((await t.db.query<{ secret_blob: string }>('SELECT secret_blob FROM webhook_endpoints WHERE id = $1', [created.id])).rows[0]!.secret_blob).toBe(secretBefore);

    const bad = [
      [{}, 'body'],
      [{ event_types: ['nfce.nonsense'] }, 'event_types'],
      [{ url: 'ftp://example.com/x' }, 'url'],
      [{ secret: 'whsec_x' }, 'secret'],
    ] as const;
    for (const [payload, field] of bad) {
      const res = await t.app.inject({ method: 'PATCH', url: `/v1/webhooks/${created.id}`, headers: auth, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(JSON.stringify(res.json().details ?? res.json().message)).toContain(field === 'body' ? '' : field);
    }
    // An unknown event type is named with the types there are, not "must be equal to constant".
    const unknown = (await t.app.inject({ method: 'PATCH', url: `/v1/webhooks/${created.id}`, headers: auth, payload: { event_types: ['nfce.nonsense'] } })).json();
    expect(unknown.details).toEqual([{ field: 'event_types[0]', message: expect.stringMatching(/^must be one of: .*nfce\.authorized.*nfce\.rejected/) }]);
    expect(JSON.stringify(unknown)).not.toContain('constant');
    // Another account's endpoint does not exist for this one.
    const { auth: other } = await t.newAccount();
    expect((await t.app.inject({ method: 'PATCH', url: `/v1/webhooks/${created.id}`, headers: other, payload: { enabled: false } })).statusCode).toBe(404);
  });

  it('an endpoint disabled after its failures is enabled again and receives the next events', async () => {
    const { auth } = await t.newAccount();
    const issuerId = await readyIssuer(t, auth);
    const hook = (await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: auth, payload: { url: receiver.url, event_types: ['nfce.authorized'] } })).json();
    // As the delivery job does after 3 days without a 2xx.
    await t.db.query('UPDATE webhook_endpoints SET failing_since = $2 WHERE id = $1', [hook.id, new Date(Date.now() - 4 * 86_400_000)]);
    expect(await disableEndpoint(t.db, hook.id, 'no 2xx for 3 days', new Date())).toBe(true);
    const disabled = (await t.app.inject({ method: 'GET', url: `/v1/webhooks/${hook.id}`, headers: auth })).json();
    expect(disabled).toMatchObject({ enabled: false, disabled_reason: 'no 2xx for 3 days' });

    const { note: missed } = await emitSettled(t, auth, sale(issuerId));
    const enabled = (await t.app.inject({ method: 'PATCH', url: `/v1/webhooks/${hook.id}`, headers: auth, payload: { enabled: true } })).json();
    expect(enabled).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
    const { note } = await emitSettled(t, auth, sale(issuerId));
    const [got] = await receiver.waitFor(1, (r) => r.body.includes(note.id));
    expect(JSON.parse(got!.body)).toMatchObject({ type: 'nfce.authorized', data: { id: note.id } });
    // Nothing was sent while it was disabled.
    expect(receiver.received.some((r) => r.body.includes(missed.id))).toBe(false);

    // Disabled by hand, it says so.
    const off = (await t.app.inject({ method: 'PATCH', url: `/v1/webhooks/${hook.id}`, headers: auth, payload: { enabled: false } })).json();
    expect(off).toMatchObject({ enabled: false, disabled_reason: 'disabled by the account' });
  });
});
