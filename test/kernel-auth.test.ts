import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.app.close());

describe('authentication and scopes', () => {
  it('answers 401 with the error envelope when the key is missing or wrong', async () => {
    for (const headers of [{}, { authorization: 'Bearer sk_test_nope' }, { authorization: 'Basic abc' }]) {
      const res = await t.app.inject({ method: 'GET', url: '/v1/applications', headers });
      expect(res.statusCode).toBe(401);
      const body = res.json();
      expect(body.error).toBe('unauthorized');
      expect(body.request_id).toBe(res.headers['x-request-id']);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    }
  });

  it('says what is wrong with an Authorization header that is not "Bearer <api key>"', async () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{}, /^Missing API key: send "Authorization: Bearer <api key>"$/],
      [{ authorization: '' }, /^Missing API key/],
      // the key sent without its scheme
      [{ authorization: 'sk_sandbox_public' }, /^Authorization header must be "Bearer <api key>": the "Bearer " prefix is missing$/],
      [{ authorization: 'Basic YWxhZGRpbjpvcGVuc2VzYW1l' }, /^Authorization header must be "Bearer <api key>": it uses the scheme "Basic"$/],
      [{ authorization: 'Token sk_sandbox_public' }, /^Authorization header must be "Bearer <api key>": it uses the scheme "Token"$/],
      [{ authorization: 'Bearer' }, /^Authorization header must be "Bearer <api key>": the key after "Bearer" is empty$/],
      [{ authorization: 'Bearer   ' }, /^Authorization header must be "Bearer <api key>": the key after "Bearer" is empty$/],
      [{ authorization: 'Bearer sk_sandbox_public extra' }, /^Authorization header must be "Bearer <api key>": the key must be one word, without spaces$/],
      [{ authorization: 'Bearer sk_test_nope' }, /^Invalid API key$/],
    ];
    for (const [headers, message] of cases) {
      const res = await t.app.inject({ method: 'GET', url: '/v1/applications', headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
      expect(res.json(), JSON.stringify(headers)).toMatchObject({ error: 'unauthorized', message: expect.stringMatching(message) });
      expect(res.headers['www-authenticate'], JSON.stringify(headers)).toMatch(/^Bearer/);
    }
    // The header's key is never echoed (it is a secret even when malformed).
    const bare = await t.app.inject({ method: 'GET', url: '/v1/applications', headers: { authorization: 'sk_live_secretvalue' } });
    expect(bare.body).not.toContain('secretvalue');
    // The scheme is named only when it looks like one.
    const odd = await t.app.inject({ method: 'GET', url: '/v1/applications', headers: { authorization: 'sk_live_secret123 x' } });
    expect(odd.json().message).toBe('Authorization header must be "Bearer <api key>": it uses another scheme');
  });

  it('accepts the sandbox public key in the sandbox only', async () => {
    const ok = await t.app.inject({ method: 'GET', url: '/v1/applications', headers: { authorization: 'Bearer sk_sandbox_public' } });
    expect(ok.statusCode).toBe(200);
    const prod = await createTestApp({ env: { GATEWAY_ENV: 'production' } });
    const res = await prod.app.inject({ method: 'GET', url: '/v1/applications', headers: { authorization: 'Bearer sk_sandbox_public' } });
    expect(res.statusCode).toBe(401);
    await prod.app.close();
  });

  it('lets the shared sandbox key use issuers and documents but not change what all its users share (409)', async () => {
    const shared = { authorization: 'Bearer sk_sandbox_public' };
    const before = (await t.app.inject({ method: 'GET', url: '/v1/account', headers: shared })).json();
    const writes = [
      { method: 'PATCH' as const, url: '/v1/account', payload: { taxRegime: before.taxRegime === 'legacy' ? 'reform_2026' : 'legacy' } },
      { method: 'PATCH' as const, url: '/v1/account', payload: { notification_email: 'attacker@example.com' } },
      { method: 'POST' as const, url: '/v1/applications', payload: { name: 'mine', scopes: ['*'] } },
      { method: 'DELETE' as const, url: '/v1/account/technical-responsible' },
    ];
    for (const w of writes) {
      const res = await t.app.inject({ ...w, headers: shared });
      expect(res.statusCode, `${w.method} ${w.url} ${res.body}`).toBe(409);
      expect(res.json()).toMatchObject({ error: 'shared_sandbox_read_only', message: expect.stringMatching(/Sign up/) });
    }
    expect((await t.app.inject({ method: 'GET', url: '/v1/account', headers: shared })).json()).toEqual(before);
    // A malformed body is still named first (422), and reads and issuers stay open to the key.
    expect((await t.app.inject({ method: 'POST', url: '/v1/applications', headers: shared, payload: { name: 7 } })).statusCode).toBe(422);
    expect((await t.app.inject({ method: 'GET', url: '/v1/applications', headers: shared })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/v1/issuers', headers: shared })).statusCode).toBe(200);
  });

  it('answers 403 when the key lacks the scope, and refuses to mint a broader key', async () => {
    const owner = await t.newAccount();
    const created = await t.app.inject({
      method: 'POST', url: '/v1/applications', headers: owner.auth,
      payload: { name: 'reader', scopes: ['issuers:read'] },
    });
    expect(created.statusCode).toBe(201);
    const reader = { authorization: `Bearer ${created.json().key}` };
    expect(created.json().key).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);

    const denied = await t.app.inject({ method: 'GET', url: '/v1/applications', headers: reader });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ error: 'forbidden', message: expect.stringContaining('applications:read') });

    const apps = await t.app.inject({
      method: 'POST', url: '/v1/applications', headers: owner.auth, payload: { name: 'apps', scopes: ['applications:write'] },
    });
    const appsKey = { authorization: `Bearer ${apps.json().key}` };
    const escalate = await t.app.inject({
      method: 'POST', url: '/v1/applications', headers: appsKey, payload: { name: 'root', scopes: ['*'] },
    });
    expect(escalate.statusCode).toBe(403);
    // write covers read
    expect((await t.app.inject({ method: 'GET', url: '/v1/applications', headers: appsKey })).statusCode).toBe(200);
  });

  it('refuses to revoke or rotate a key whose scopes the caller does not cover, naming the missing scopes', async () => {
    const owner = await t.newAccount();
    const mint = async (scopes: string[]) => {
      const res = await t.app.inject({ method: 'POST', url: '/v1/applications', headers: owner.auth, payload: { name: scopes.join(' '), scopes } });
      expect(res.statusCode).toBe(201);
      return { id: res.json().id as string, auth: { authorization: `Bearer ${res.json().key}` } };
    };
    const root = await mint(['*']);
    const appsOnly = await mint(['applications:write']);
    const narrow = await mint(['applications:write', 'nfce:write']);
    const target = await mint(['nfce:write', 'issuers:read']);
    for (const caller of [appsOnly, narrow]) {
      for (const [method, url] of [['DELETE', `/v1/applications/${root.id}`], ['POST', `/v1/applications/${root.id}/rotate`]] as const) {
        const res = await t.app.inject({ method, url, headers: caller.auth });
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json()).toMatchObject({ error: 'forbidden', message: expect.stringContaining('*'), request_id: expect.any(String) });
      }
    }
    const missing = await t.app.inject({ method: 'DELETE', url: `/v1/applications/${target.id}`, headers: narrow.auth });
    expect(missing.statusCode).toBe(403);
    expect(missing.json().message).toContain('issuers:read');
    expect(missing.json().message).not.toContain('nfce:write');
    // The broader keys still work, and were neither revoked nor rotated.
    expect((await t.app.inject({ method: 'GET', url: '/v1/applications', headers: root.auth })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/v1/nfce', headers: target.auth })).statusCode).toBe(200);
    const listed = (await t.app.inject({ method: 'GET', url: '/v1/applications?limit=100', headers: owner.auth })).json();
    const byId = new Map(listed.data.map((a: { id: string; rotated_at: string | null }) => [a.id, a]));
    expect(byId.get(root.id)).toMatchObject({ rotated_at: null });
    expect(byId.get(target.id)).toMatchObject({ rotated_at: null });
    // A key that covers the target may revoke it (itself included).
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/applications/${narrow.id}`, headers: narrow.auth })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/applications/${target.id}`, headers: root.auth })).statusCode).toBe(200);
  });

  it("hides another account's records behind 404", async () => {
    const a = await t.newAccount();
    const b = await t.newAccount();
    const created = await t.app.inject({ method: 'POST', url: '/v1/applications', headers: a.auth, payload: { name: 'a', scopes: ['nfce:read'] } });
    const id = created.json().id;
    for (const [method, url] of [['DELETE', `/v1/applications/${id}`], ['POST', `/v1/applications/${id}/rotate`]] as const) {
      const res = await t.app.inject({ method, url, headers: b.auth });
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
    const list = await t.app.inject({ method: 'GET', url: '/v1/applications', headers: b.auth });
    expect(list.json().data.map((x: { id: string }) => x.id)).not.toContain(id);
  });

  it('stores keys hashed, rotates with a grace period and revokes at once', async () => {
    const owner = await t.newAccount();
    const created = await t.app.inject({ method: 'POST', url: '/v1/applications', headers: owner.auth, payload: { name: 'pos', scopes: ['applications:read'] } });
    const { id, key } = created.json();
    const stored = await t.db.query<{ row: string }>('SELECT a::text AS row FROM applications a WHERE id = $1', [id]);
    expect(stored.rows[0]!.row).not.toContain(key);

    const rotated = await t.app.inject({ method: 'POST', url: `/v1/applications/${id}/rotate`, headers: owner.auth });
    expect(rotated.statusCode).toBe(200);
    const newKey = rotated.json().key;
    expect(newKey).not.toBe(key);
    expect(new Date(rotated.json().previous_key_expires_at).getTime() - Date.now()).toBeGreaterThan(23 * 3600_000);
    for (const k of [key, newKey]) {
      const res = await t.app.inject({ method: 'GET', url: '/v1/applications', headers: { authorization: `Bearer ${k}` } });
      expect(res.statusCode).toBe(200);
    }
    const del = await t.app.inject({ method: 'DELETE', url: `/v1/applications/${id}`, headers: owner.auth });
    expect(del.statusCode).toBe(200);
    const after = await t.app.inject({ method: 'GET', url: '/v1/applications', headers: { authorization: `Bearer ${newKey}` } });
    expect(after.statusCode).toBe(401);
  });
});
