// The SVC down too (docs/fiscal/svc.md#when-the-svc-is-down-too): the state's NF-e authorizer and its SVC both stop
// answering the issuer in the simulator (outages on demand, `authorizer: 'svc'` for the SVC). The notes the state
// answered 108 are issued for SVC-AN (tpEmis 6), which answers 109: each SVC has its own breaker, which opens
// beside the state's; the notes stay processing, none lost, none authorized twice. Then one comes back: the state
// first - the notes the SVC never took are issued again for the state (tpEmis 1, same number); or the SVC first -
// they are authorized there under their tpEmis 6 key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from './support/clock.js';
import type { TestApp } from './support/app.js';
import { startNfeContingencyWorld, type Issuing, type NfeContingencyWorld } from './support/nfe-contingency-world.js';
import { invoice } from './support/nfe-flow.js';

const clock = new ManualClock(new Date());
let t: TestApp;
let w: NfeContingencyWorld;

type Nfe = { id: string; status: string; access_key: string };

beforeAll(async () => {
  w = await startNfeContingencyWorld(clock);
  t = w.t;
});
afterAll(async () => w?.close());

const issuing = () => w.issuing();

async function post(who: Issuing): Promise<Nfe> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/nfe', headers: { ...who.auth, prefer: 'wait=1' }, payload: invoice(who.issuerId) });
  expect([201, 202], res.body).toContain(res.statusCode);
  return res.json();
}

const until = <T>(probe: () => Promise<T | null | false | undefined>, what: string) => w.until(probe, what, { probeBreakers: true, timeoutMs: 180_000 });
/** The account's NF-e authorization breaker at the state (`svc` false) or at its SVC. */
const breaker = (who: Issuing, svc: boolean) => w.breaker(who.accountId, svc ? 'svc-an' : 'state');
const stored = (id: string) => w.stored(id);
const history = (who: Issuing, id: string) => w.history(who, id);

/** State (108) and SVC (109) down for the issuer: three NF-e end up issued for SVC-AN, not taken, still processing. */
async function bothDown(who: Issuing): Promise<Array<{ id: string; stateKey: string; svcKey: string; number: number }>> {
  t.simulator.startOutage({ mode: 'unavailable', seconds: 3600, cnpj: who.cnpj });
  t.simulator.startOutage({ mode: 'unavailable:109', seconds: 3600, cnpj: who.cnpj, authorizer: 'svc' });
  const sent = [await post(who), await post(who), await post(who)];
  await until(async () => (await breaker(who, false)) === 'open' && (await breaker(who, true)) === 'open', 'both breakers open, each its own');
  const notes = [];
  for (const n of sent) {
    const row = await until(async () => {
      const r = await stored(n.id);
      const lines = await history(who, n.id);
      const switched = lines.map((h) => h.type).lastIndexOf('svc_contingency');
      return r.access_key[34] === '6' && switched >= 0 && lines.slice(switched).some((h) => h.type === 'authority_unavailable' && h.code === '109') && r;
    }, 'the note issued for SVC-AN and answered 109 there');
    expect(row.status).toBe('processing');
    const line = (await history(who, n.id)).find((h) => h.type === 'svc_contingency')!;
    const stateKey = /did not take key ([0-9]{44})/.exec(line.message)![1]!;
    notes.push({ id: n.id, stateKey, svcKey: row.access_key, number: row.number });
    // Taken by neither: the simulator's books hold no authorization of either key.
    expect(await t.simulator.authorizationsFor(stateKey)).toBe(0);
    expect(await t.simulator.authorizationsFor(row.access_key)).toBe(0);
  }
  return notes;
}

describe('NF-e when the SVC is down too', { timeout: 400_000 }, () => {
  it('both down, then the state back: the notes the SVC never took go to the state under their number (tpEmis 1)', async () => {
    const who = await issuing();
    const notes = await bothDown(who);
    // Only the state comes back; its breaker's probe closes it, the SVC's stays open.
    t.simulator.endOutage(who.cnpj, undefined, 'state');
    await until(async () => (await breaker(who, false)) === 'closed', 'the state\'s breaker closed');
    expect(await breaker(who, true)).not.toBe('closed');
    for (const n of notes) {
      const done = await until(async () => {
        const r = await stored(n.id);
        return r.status === 'authorized' && r;
      }, 'the note authorized at the state');
      expect(done.access_key[34]).toBe('1');
      expect(done.number).toBe(n.number);
      expect(done.access_key.slice(25, 34)).toBe(n.svcKey.slice(25, 34));
      const lines = await history(who, n.id);
      expect(lines.find((h) => h.type === 'svc_contingency_ended')?.message).toContain(`SVC-AN did not take key ${n.svcKey}`);
      // One authorization for the sale: the state's, under the new key; none at the SVC.
      expect(await t.simulator.authorizationsFor(done.access_key)).toBe(1);
      expect(await t.simulator.authorizationsFor(n.svcKey)).toBe(0);
      expect(await t.simulator.authorizationsFor(n.stateKey)).toBe(0);
    }
    t.simulator.endOutage(who.cnpj);
  });

  it('both down, then the SVC back: the notes are authorized at SVC-AN under their tpEmis 6 key', async () => {
    const who = await issuing();
    const notes = await bothDown(who);
    t.simulator.endOutage(who.cnpj, undefined, 'svc');
    for (const n of notes) {
      const done = await until(async () => {
        const r = await stored(n.id);
        return r.status === 'authorized' && r;
      }, 'the note authorized at the SVC');
      expect(done.access_key).toBe(n.svcKey);
      expect(await t.simulator.authorizationsFor(n.svcKey)).toBe(1);
      expect(await t.simulator.authorizationsFor(n.stateKey)).toBe(0);
      expect((await history(who, n.id)).some((h) => h.type === 'svc_contingency_ended')).toBe(false);
    }
    // The state is still down: its breaker has not closed.
    expect(await breaker(who, false)).not.toBe('closed');
    t.simulator.endOutage(who.cnpj);
  });
});
