// An issuer that sends one NF-e now and then never fails three sends within the breaker's window: the
// state's own answer 108/109 ("serviço paralisado") to that one send is enough for the note to go to the
// state's SVC at once, under the same number (the key was not used), with tpEmis 6, dhCont and xJust, while
// the breaker stays closed. A note whose answer was lost (the state registered it) is never issued again
// at the SVC: it is consulted at the state until it answers, and authorized there under its own key
// (docs/fiscal/svc.md#when-the-gateway-switches). The clock is the test's; nothing sleeps.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from './support/clock.js';
import type { TestApp } from './support/app.js';
import { startNfeContingencyWorld, type Issuing, type NfeContingencyWorld } from './support/nfe-contingency-world.js';
import { invoice } from './support/nfe-flow.js';
import { eventually } from './support/webhook-receiver.js';
import { xmllint } from './support/xml-tools.js';

const clock = new ManualClock(new Date());
let t: TestApp;
let w: NfeContingencyWorld;

beforeAll(async () => {
  w = await startNfeContingencyWorld(clock);
  t = w.t;
});
afterAll(async () => w?.close());

const issuing = () => w.issuing();

async function post(who: Issuing): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/nfe', headers: { ...who.auth, prefer: 'wait=1' }, payload: invoice(who.issuerId) });
  expect([201, 202], res.body).toContain(res.statusCode);
  return res.json().id as string;
}

const stored = (id: string) => w.stored(id);
const history = (who: Issuing, id: string) => w.history(who, id);
const until = <T>(probe: () => Promise<T | null | false | undefined>, what: string) => w.until(probe, what);
const breakerOf = (who: Issuing) => w.breaker(who.accountId, 'state');

describe('a single NF-e while the state is paralysed', { timeout: 300_000 }, () => {
  for (const mode of ['unavailable', 'unavailable:109'] as const) {
    it(`the state answers ${mode === 'unavailable' ? 108 : 109}: the one note is authorized at SVC-AN (tpEmis 6, same number), the breaker still closed`, async () => {
      const sp = await issuing();
      t.simulator.startOutage({ mode, seconds: 3600, cnpj: sp.cnpj });
      try {
        const id = await post(sp);
        const note = await until(async () => {
          const n = await stored(id);
          return n.status === 'authorized' && n;
        }, 'the note authorized at the SVC');
        expect(note.access_key[34]).toBe('6');
        expect(note.tp_emis).toBe(6);
        // One failed send: not enough for the breaker (3 within its window), and not needed.
        expect(await breakerOf(sp)).not.toBe('open');
        const lines = await history(sp, id);
        const unavailable = lines.find((e) => e.type === 'authority_unavailable')!;
        expect(unavailable.code).toBe(mode === 'unavailable' ? '108' : '109');
        const switched = lines.find((e) => e.type === 'svc_contingency')!;
        const before = /did not take key ([0-9]{44})/.exec(switched.message)![1]!;
        expect(before[34]).toBe('1');
        expect(note.access_key.slice(25, 34)).toBe(before.slice(25, 34)); // same nNF
        expect(await t.simulator.authorizationsFor(before)).toBe(0);
        expect(await t.simulator.authorizationsFor(note.access_key)).toBe(1);
        const api = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${id}`, headers: sp.auth })).json();
        expect(api.contingency).toMatchObject({ type: 'svc_an', reason: 'Autorizador da SEFAZ SP indisponivel; emissao em contingencia SVC-AN' });
        const xml = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${id}/xml`, headers: sp.auth })).body;
        expect(xml).toContain('<tpEmis>6</tpEmis>');
        expect(xml).toContain(`<dhCont>${api.contingency.entered_at}</dhCont>`);
        expect(await xmllint(xml, 'PL_009_V4', 'procNFe_v4.00.xsd')).toBe('');
      } finally {
        t.simulator.endOutage(sp.cnpj);
      }
    });
  }

  it('the answer is lost after the state registered the note: consulted at the state while it is down, never issued again at the SVC', async () => {
    const sp = await issuing();
    // The state registers the note and the answer is lost; the consultation that follows is answered 108.
    t.simulator.setScenario('lost-response', { times: 1, service: 'autorizacao' });
    t.simulator.setScenario('unavailable', { times: 1, service: 'consultaProtocolo' });
    const id = await post(sp);
    const first = await eventually(async () => {
      const lines = await history(sp, id);
      return lines.some((e) => e.type === 'authority_in_doubt') && (await stored(id));
    }, 60_000, 'the first send in doubt');
    expect(first.access_key[34]).toBe('1');
    expect(await t.simulator.authorizationsFor(first.access_key)).toBe(1);
    // Now the state is paralysed (108 to every call): several retries consult it, none sends elsewhere.
    t.simulator.startOutage({ mode: 'unavailable', seconds: 3600, cnpj: sp.cnpj });
    try {
      await until(async () => (await history(sp, id)).filter((e) => e.type === 'consulted').length >= 3 || null, 'three consultations at the state');
      const still = await stored(id);
      expect(still).toMatchObject({ status: 'processing', access_key: first.access_key, tp_emis: 1 });
      expect((await history(sp, id)).some((e) => e.type === 'svc_contingency')).toBe(false);
      const sameNumber = await t.db.query("SELECT count(*)::int AS n FROM sim_notes WHERE substr(access_key, 7, 14) = $1 AND substr(access_key, 26, 9) = $2", [sp.cnpj, first.access_key.slice(25, 34)]);
      expect(sameNumber.rows[0]?.n).toBe(1);
    } finally {
      t.simulator.endOutage(sp.cnpj);
    }
    // The state back: the consultation finds it, authorized there under its first key, once.
    const done = await until(async () => {
      const n = await stored(id);
      return n.status === 'authorized' && n;
    }, 'authorized at the state');
    expect(done.access_key).toBe(first.access_key);
    expect(await t.simulator.authorizationsFor(first.access_key)).toBe(1);
  });
});
