import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditAction } from '../src/platform/audit/audit-action.js';
import { createTestApp, type TestApp } from './support/app.js';
import { readyIssuer, TEST_CSC } from './support/nfce-flow.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.runtime.close());

describe('audit log', () => {
  it('derives actions from method and route pattern', () => {
    expect(auditAction('POST', '/v1/nfce')).toBe('nfce.create');
    expect(auditAction('POST', '/v1/nfce/:id/cancel')).toBe('nfce.cancel');
    expect(auditAction('PATCH', '/v1/issuers/:id')).toBe('issuer.update');
    expect(auditAction('DELETE', '/v1/webhooks/:id')).toBe('webhook.delete');
    expect(auditAction('POST', '/v1/issuers/:id/certificate')).toBe('issuer.certificate.create');
    expect(auditAction('POST', '/v1/webhooks/:id/deliveries/:dlvId/replay')).toBe('webhook.delivery.replay');
    expect(auditAction('POST', '/v1/applications/:id/rotate')).toBe('application.rotate');
  });

  it('records every mutating call with actor, action, target, ip, request id and status, and never a secret', async () => {
    const { auth, key, accountId } = await t.newAccount();
    const issuerId = await readyIssuer(t, auth); // issuer, certificate (password), CSC
    const hook = (await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: auth, payload: { url: 'http://127.0.0.1:9/x', event_types: ['*'] } })).json();
    const app = (await t.app.inject({ method: 'POST', url: '/v1/applications', headers: auth, payload: { name: 'POS', scopes: ['nfce:write'] } })).json();
    const rotated = (await t.app.inject({ method: 'POST', url: `/v1/applications/${app.id}/rotate`, headers: auth })).json();
    await t.app.inject({ method: 'PATCH', url: '/v1/account', headers: auth, payload: { notification_email: 'fin@example.com' } });
    const del = await t.app.inject({ method: 'DELETE', url: `/v1/webhooks/${hook.id}`, headers: { ...auth, 'x-request-id': 'req-audit-test-1' } });
    expect(del.statusCode).toBe(200);
    const missing = await t.app.inject({ method: 'DELETE', url: '/v1/webhooks/whk_nope', headers: auth });
    expect(missing.statusCode).toBe(404);
    await t.app.inject({ method: 'GET', url: '/v1/webhooks', headers: auth }); // reads are not audited

    const res = await t.app.inject({ method: 'GET', url: '/v1/audit-log?limit=100', headers: auth });
    expect(res.statusCode).toBe(200);
    const entries = res.json().data as Array<Record<string, unknown>>;
    const actor = entries[0]!.actor as string;
    expect(actor).toMatch(/^app_/);
    expect(entries.map((e) => `${e.action} ${e.status_code}`)).toEqual([
      'webhook.delete 404',
      'webhook.delete 200',
      'account.update 200',
      'application.rotate 200',
      'application.create 201',
      'webhook.create 201',
      'issuer.csc.create 201',
      'issuer.certificate.create 201',
      'issuer.create 201',
    ]);
    const byAction = (a: string) => entries.find((e) => e.action === a)!;
    expect(byAction('issuer.create').target).toBe(issuerId);
    expect(byAction('webhook.create').target).toBe(hook.id);
    expect(byAction('application.rotate').target).toBe(app.id);
    expect(entries[1]).toMatchObject({ target: hook.id, request_id: 'req-audit-test-1', ip: '127.0.0.1', method: 'DELETE', route: '/v1/webhooks/:id', actor });

    // No secret in any entry: API keys, the webhook secret, the certificate password, the CSC.
    const text = JSON.stringify(entries);
    for (const secret of [key, app.key, rotated.key, hook.secret, 'minhasenha', TEST_CSC.csc]) expect(text).not.toContain(secret);
    const raw = JSON.stringify((await t.db.query('SELECT * FROM audit_log WHERE account_id = $1', [accountId])).rows);
    for (const secret of [key, app.key, rotated.key, hook.secret, 'minhasenha', TEST_CSC.csc]) expect(raw).not.toContain(secret);

    // Filters and paging.
    const q = async (qs: string) => (await t.app.inject({ method: 'GET', url: `/v1/audit-log?${qs}`, headers: auth })).json().data.map((e: { action: string }) => e.action);
    expect(await q('action=webhook')).toEqual(['webhook.delete', 'webhook.delete', 'webhook.create']);
    expect(await q(`target=${hook.id}`)).toEqual(['webhook.delete', 'webhook.create']);
    expect(await q(`actor=${actor}&limit=2`)).toEqual(['webhook.delete', 'webhook.delete']);
    expect(await q('actor=app_someoneelse')).toEqual([]);
    expect(await q(`to=${new Date(Date.now() - 3_600_000).toISOString()}`)).toEqual([]);
    const page1 = (await t.app.inject({ method: 'GET', url: '/v1/audit-log?limit=4', headers: auth })).json();
    expect(page1.has_more).toBe(true);
    expect(await q(`limit=100&starting_after=${page1.data[3].id}`)).toHaveLength(entries.length - 4);

    // Append-only, enforced by the database as well.
    await expect(t.db.query('UPDATE audit_log SET action = $1 WHERE account_id = $2', ['x', accountId])).rejects.toThrow(/append-only/);
    await expect(t.db.query('DELETE FROM audit_log WHERE account_id = $1', [accountId])).rejects.toThrow(/append-only/);

    // Other accounts see nothing of it; the scope is required.
    const other = await t.newAccount();
    expect((await t.app.inject({ method: 'GET', url: '/v1/audit-log', headers: other.auth })).json().data).toEqual([]);
    const nfceOnly = { authorization: `Bearer ${app.key === rotated.key ? app.key : rotated.key}` };
    expect((await t.app.inject({ method: 'GET', url: '/v1/audit-log', headers: nfceOnly })).statusCode).toBe(403);
  });
});
