import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';
import { emitSettled, emittingApp, sale, waitForStatus } from './support/nfce-flow.js';

let t: TestApp;
let auth: { authorization: string };
let issuerId: string;
beforeAll(async () => {
  ({ t, auth, issuerId } = await emittingApp());
});
afterAll(async () => t.runtime.close());

async function emit(scenario: string, app = t) {
  const res = await app.app.inject({ method: 'POST', url: '/v1/nfce', headers: { ...auth, 'x-sandbox-scenario': scenario }, payload: sale(issuerId) });
  expect(res.statusCode, res.body).toBe(202);
  return res.json().id as string;
}

async function history(id: string, app = t): Promise<string[]> {
  const res = await app.app.inject({ method: 'GET', url: `/v1/nfce/${id}/events`, headers: auth });
  return res.json().data.map((e: { type: string }) => e.type);
}

describe('sandbox scenarios end in the documented state', () => {
  it('reject:778 -> rejected, explained, and the number is reused by the next sale', async () => {
    const id = await emit('reject:778');
    const note = await waitForStatus(t, auth, id, 'rejected');
    expect(note.rejection).toMatchObject({ code: '778', field: expect.stringMatching(/ncm/), hint: expect.any(String) });
    expect(note.access_key).toBeNull();
    const { note: next } = await emitSettled(t, auth, sale(issuerId));
    expect(next.status).toBe('authorized');
    expect(next.number).toBe(note.number);
  });

  it('deny -> denied (the number is consumed)', async () => {
    const id = await emit('deny');
    const note = await waitForStatus(t, auth, id, 'denied');
    expect(note.rejection?.code).toMatch(/^(110|301|302|303)$/);
    const { note: next } = await emitSettled(t, auth, sale(issuerId));
    expect(next.number).toBeGreaterThan(note.number);
  });

  it('lost-response -> authorized through consultation, authorized exactly once', async () => {
    const id = await emit('lost-response');
    const note = await waitForStatus(t, auth, id, 'authorized');
    expect(await t.simulator.authorizationsFor(note.access_key)).toBe(1);
    expect(await history(id)).toContain('authorized');
  });

  it('async -> the lot is received (103), its receipt is polled, authorized once without a second transmission', async () => {
    const id = await emit('async');
    const note = await waitForStatus(t, auth, id, 'authorized');
    expect(await t.simulator.authorizationsFor(note.access_key)).toBe(1);
    const types = await history(id);
    expect(types.filter((x) => x === 'transmitted')).toHaveLength(1);
    expect(types).toEqual(expect.arrayContaining(['receipt', 'receipt_polled', 'authorized']));
    expect(types.indexOf('receipt')).toBeLessThan(types.indexOf('receipt_polled'));
    const xml = await t.app.inject({ method: 'GET', url: `/v1/nfce/${id}/xml`, headers: auth });
    expect(xml.body).toContain(`<chNFe>${note.access_key}</chNFe>`);
  });

  for (const scenario of ['timeout', 'unavailable', 'http-500', 'malformed']) {
    it(`${scenario} -> retried after consulting, then authorized once`, async () => {
      // The simulator never answers 'timeout': the worker gives up on its response timeout, so this
      // one runs on a gateway (same database, same account) that waits 2 s instead of the tests' 15 s,
      // while the file's own worker pauses (it would take the job half the time and wait 15 s).
      const app = scenario === 'timeout' ? await createTestApp({ role: 'all', env: { AUTHORITY_RESPONSE_TIMEOUT_MS: '2000' } }) : t;
      if (app !== t) await t.runtime.runner!.stop();
      try {
        const id = await emit(scenario, app);
        const note = await waitForStatus(app, auth, id, 'authorized', 45_000);
        expect(await app.simulator.authorizationsFor(note.access_key)).toBe(1);
        const types = await history(id, app);
        expect(types.filter((x) => x === 'transmitted').length).toBeGreaterThanOrEqual(1);
        expect(types.some((x) => x === 'authority_unavailable' || x === 'authority_in_doubt')).toBe(true);
      } finally {
        if (app !== t) {
          await app.runtime.close();
          t.runtime.runner!.start();
        }
      }
    }, 60_000);
  }

  it('refuses an unknown scenario naming the header', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: { ...auth, 'x-sandbox-scenario': 'explode' }, payload: sale(issuerId) });
    expect(res.statusCode).toBe(422);
    expect(res.json().details[0].field).toBe('header.X-Sandbox-Scenario');
  });
});
