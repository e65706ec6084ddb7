import { beforeAll, describe, expect, it } from 'vitest';
import { issuerTestApp, type IssuerTestApp } from './issuers-harness.js';

let t: IssuerTestApp;
beforeAll(async () => {
  t = await issuerTestApp();
});

describe('/v1/account', () => {
  it('shows the key\'s account and updates its name and tax regime', async () => {
    const { auth, accountId } = await t.newAccount();
    const got = await t.app.inject({ method: 'GET', url: '/v1/account', headers: auth });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toMatchObject({ id: accountId, object: 'account', name: 'Issuer tests', taxRegime: 'legacy', environment: 'sandbox' });
    const patched = await t.app.inject({ method: 'PATCH', url: '/v1/account', headers: auth, payload: { taxRegime: 'reform_2026', name: 'Loja Nova' } });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ id: accountId, name: 'Loja Nova', taxRegime: 'reform_2026' });
    expect((await t.app.inject({ method: 'GET', url: '/v1/account', headers: auth })).json().taxRegime).toBe('reform_2026');

    const bad = await t.app.inject({ method: 'PATCH', url: '/v1/account', headers: auth, payload: { taxRegime: 'ibs' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().details[0]).toEqual({ field: 'taxRegime', message: 'must be one of: legacy, reform_2026' });
  });

  it('never shows or changes another account, and needs account scopes', async () => {
    const a = await t.newAccount();
    const b = await t.newAccount();
    await t.app.inject({ method: 'PATCH', url: '/v1/account', headers: b.auth, payload: { name: 'B' } });
    expect((await t.app.inject({ method: 'GET', url: '/v1/account', headers: a.auth })).json()).toMatchObject({ id: a.accountId, name: 'Issuer tests' });
    const issuersOnly = await t.keyWithScopes(a.accountId, ['issuers:write']);
    expect((await t.app.inject({ method: 'GET', url: '/v1/account', headers: issuersOnly })).statusCode).toBe(403);
    const reader = await t.keyWithScopes(a.accountId, ['account:read']);
    expect((await t.app.inject({ method: 'GET', url: '/v1/account', headers: reader })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'PATCH', url: '/v1/account', headers: reader, payload: { name: 'x' } })).statusCode).toBe(403);
  });
});

describe('GET /v1/hsm/status', () => {
  it('reports the envelope master key as healthy', async () => {
    const { auth } = await t.newAccount();
    const res = await t.app.inject({ method: 'GET', url: '/v1/hsm/status', headers: auth });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ mode: 'envelope', healthy: true });
    expect(body.master_key_id).toMatch(/^mk_[0-9a-f]{16}$/);
    expect(Date.now() - Date.parse(body.checked_at)).toBeLessThan(60_000);
    expect(res.body).not.toContain(t.config.masterKey!);
  });
});
