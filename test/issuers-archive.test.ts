// Second half: a downgrade past the smaller plan's issuer limit was refused naming
// issuers to remove, but an issuer is never deleted (its documents are kept 5 years), so the account
// could never move down. Now the excess is archived: read-only (no new document, 409 issuer_archived),
// its documents still readable, and not counted by the plan; unarchiving counts again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';
import { makeProduction } from './support/billing.js';
import { ManualClock } from './support/clock.js';
import { emitSettled, readyIssuer, sale, TEST_CSC } from './support/nfce-flow.js';

// The simulated authority checks the emission time against the real clock (704): start from now.
const clock = new ManualClock(new Date().toISOString());
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock, role: 'all' });
}, 60_000);
afterAll(async () => t.runtime.close());

type Auth = { authorization: string };
let keys = 0;
const change = (auth: Auth, plan: string) =>
  t.app.inject({ method: 'POST', url: '/v1/billing/upgrade', headers: { ...auth, 'idempotency-key': `archive-key-${++keys}` }, payload: { plan } });
const post = (auth: Auth, url: string, payload?: object) => t.app.inject({ method: 'POST', url, headers: auth, ...(payload ? { payload } : {}) });
const get = (auth: Auth, url: string) => t.app.inject({ method: 'GET', url, headers: auth });

describe('archiving issuers lets an account move to a smaller plan', () => {
  it('5 issuers on a trial of pro: archive 4, downgrade to free, the archived ones issue nothing but stay readable', async () => {
    const { auth, accountId } = await t.newAccount('Archive');
    await makeProduction(t.db, accountId);
    expect((await change(auth, 'pro')).statusCode).toBe(200);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(await readyIssuer(t, auth));
      clock.advance(1000);
    }
    const [kept, ...extra] = ids as [string, ...string[]];
    const { note: earlier } = await emitSettled(t, auth, sale(extra[0]!));
    expect(earlier.status, JSON.stringify(earlier.rejection)).toBe('authorized');

    const refused = await change(auth, 'free');
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().error).toBe('plan_limits_exceeded');
    expect(refused.json().message).toContain('POST /v1/issuers/:id/archive');
    const named = (refused.json().details as { field: string; message: string }[]).filter((d) => d.field === 'issuers').map((d) => d.message.split(' ')[0]);
    expect(named.sort()).toEqual([...extra].sort());

    for (const id of extra) {
      const archived = await post(auth, `/v1/issuers/${id}/archive`);
      expect(archived.statusCode, archived.body).toBe(200);
      expect(archived.json().archived_at).toBe(clock.now().toISOString());
    }
    clock.advance(1000);
    const again = await post(auth, `/v1/issuers/${extra[0]!}/archive`); // idempotent: the first date stays
    expect(again.statusCode).toBe(200);
    expect(again.json().archived_at).toBe(new Date(clock.now().getTime() - 1000).toISOString());
    expect((await get(auth, `/v1/issuers/${kept}`)).json().archived_at).toBeNull();
    const onlyArchived = (await get(auth, '/v1/issuers?archived=true')).json().data as { id: string }[];
    expect(onlyArchived.map((i) => i.id).sort()).toEqual([...extra].sort());
    expect((await get(auth, '/v1/issuers')).json().data).toHaveLength(5);

    const down = await change(auth, 'free');
    expect(down.statusCode, down.body).toBe(200);

    // Read-only: no sale, no inutilization, no setting, no CSC.
    const blocked = await post(auth, '/v1/nfce', sale(extra[0]!));
    expect(blocked.statusCode, blocked.body).toBe(409);
    expect(blocked.json()).toMatchObject({ error: 'issuer_archived', message: expect.stringContaining(`POST /v1/issuers/${extra[0]!}/unarchive`) });
    const inut = await post(auth, `/v1/issuers/${extra[0]!}/inutilization`, { serie: 1, numero_inicial: 500, numero_final: 501, justification: 'Numeracao pulada por falha no sistema' });
    expect(inut.json().error, inut.body).toBe('issuer_archived');
    const patched = await t.app.inject({ method: 'PATCH', url: `/v1/issuers/${extra[0]!}`, headers: auth, payload: { nome_fantasia: 'Outro' } });
    expect(patched.json().error).toBe('issuer_archived');
    expect((await post(auth, `/v1/issuers/${extra[0]!}/csc`, TEST_CSC)).json().error).toBe('issuer_archived');

    // What it issued stays readable.
    const read = await get(auth, `/v1/nfce/${earlier.id as string}`);
    expect(read.statusCode).toBe(200);
    expect(read.json().status).toBe('authorized');
    const xml = await get(auth, `/v1/nfce/${earlier.id as string}/xml`);
    expect(xml.statusCode).toBe(200);
    expect(xml.body).toContain('<nfeProc');

    // Coming back counts again: the free plan holds one issuer, and it is taken.
    const back = await post(auth, `/v1/issuers/${extra[0]!}/unarchive`);
    expect(back.statusCode, back.body).toBe(409);
    expect(back.json()).toMatchObject({ error: 'plan_limits_exceeded', details: [{ field: 'plan.limits.issuers', message: '1 of 1 in use on the Free plan' }] });

    // The active issuer still sells.
    const { note } = await emitSettled(t, auth, sale(kept));
    expect(note.status).toBe('authorized');
  }, 120_000);

  it('unarchiving within the limit makes the issuer writable again; unknown ids are 404', async () => {
    const { auth } = await t.newAccount('Unarchive');
    const id = await readyIssuer(t, auth);
    expect((await post(auth, `/v1/issuers/${id}/archive`)).statusCode).toBe(200);
    const back = await post(auth, `/v1/issuers/${id}/unarchive`);
    expect(back.statusCode).toBe(200);
    expect(back.json().archived_at).toBeNull();
    expect((await post(auth, `/v1/issuers/${id}/unarchive`)).statusCode).toBe(200);
    expect((await post(auth, `/v1/issuers/${id}/csc`, TEST_CSC)).statusCode).toBe(201);
    expect((await post(auth, '/v1/issuers/iss_nope/archive')).statusCode).toBe(404);
  });
});
