// A plan's limits on issuers and team members hold for production accounts (402
// plan_limit_reached naming the limit), an upgrade lifts them at once, what exists keeps working,
// and the sandbox has none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';
import { freshBranchCnpj, SP_ISSUER } from './support/nfce-flow.js';

let prod: TestApp;
let sandbox: TestApp;
beforeAll(async () => {
  prod = await createTestApp({ env: { GATEWAY_ENV: 'production' } });
  sandbox = await createTestApp();
}, 60_000);
afterAll(async () => {
  await prod?.runtime.close();
  await sandbox?.runtime.close();
});

type Auth = { authorization: string };
const newIssuer = (t: TestApp, auth: Auth) =>
  t.app.inject({ method: 'POST', url: '/v1/issuers', headers: auth, payload: { ...SP_ISSUER, cnpj: freshBranchCnpj() } });
const invite = (t: TestApp, auth: Auth, email: string) =>
  t.app.inject({ method: 'POST', url: '/v1/team/invites', headers: auth, payload: { email, role: 'viewer' } });

describe('plan limits', () => {
  it('free allows one issuer; the second is 402 naming the limit, until an upgrade', async () => {
    const { auth } = await prod.newAccount();
    expect((await newIssuer(prod, auth)).statusCode).toBe(201);
    const refused = await newIssuer(prod, auth);
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toMatchObject({ error: 'plan_limit_reached', details: [{ field: 'plan.limits.issuers', message: '1 of 1 in use on the Free plan' }] });
    expect(refused.json().message).toMatch(/Free plan allows 1 issuer; upgrade the plan \(POST \/v1\/billing\/upgrade\)/);
    expect((await prod.app.inject({ method: 'GET', url: '/v1/issuers', headers: auth })).json().data).toHaveLength(1);

    const up = await prod.app.inject({ method: 'POST', url: '/v1/billing/upgrade', headers: { ...auth, 'idempotency-key': `up-${Date.now()}` }, payload: { plan: 'starter' } });
    expect(up.statusCode, up.body).toBe(200);
    expect((await newIssuer(prod, auth)).statusCode).toBe(201);
    expect((await newIssuer(prod, auth)).statusCode).toBe(201);
    expect((await newIssuer(prod, auth)).statusCode).toBe(402); // starter: 3
  });

  it('members and pending invites count toward the team limit; re-inviting the same address does not', async () => {
    const { auth } = await prod.newAccount();
    expect((await invite(prod, auth, 'ana@example.com')).statusCode).toBe(201);
    expect((await invite(prod, auth, 'bia@example.com')).statusCode).toBe(201);
    expect((await invite(prod, auth, 'bia@example.com')).statusCode).toBe(201); // replaces the pending one
    const refused = await invite(prod, auth, 'caio@example.com');
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toMatchObject({ error: 'plan_limit_reached', details: [{ field: 'plan.limits.team_members', message: '2 of 2 in use on the Free plan' }] });
  });

  it('the sandbox has no limits', async () => {
    const { auth } = await sandbox.newAccount();
    for (let i = 0; i < 3; i++) expect((await newIssuer(sandbox, auth)).statusCode).toBe(201);
    for (const who of ['a', 'b', 'c']) expect((await invite(sandbox, auth, `${who}@example.com`)).statusCode).toBe(201);
  });
});
