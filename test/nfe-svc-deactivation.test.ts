// The end of an SVC contingency (docs/fiscal/svc.md#deactivation-notice, NT 2013.007 v1.03 items 03 and 04): an SP
// issuer's state down in the simulator, its NF-e authorized by SVC-AN; the state schedules the SVC's deactivation
// 10 minutes ahead, so SVC-AN's status answers 113 (K05.3). The state's breaker probe, failing, hears it at the SVC:
// the 113 text is kept with the state's breaker and its probes are not spaced out. The state back, new NF-e go to
// it (tpEmis 1). After the deactivation (114 at the SVC's status) the SVC still consults and cancels the note it
// authorized (04.3, 04.6): the gateway cancels it there, and an SVC breaker of the event service whose probe meets
// 114 closes (114 concerns the reception of lots only).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BreakerOutcome } from '../src/fiscal/sefaz/breaker-outcome.js';
import { loadIssuerSigningMaterial } from '../src/platform/issuers/issuer-signing-material.js';
import { ManualClock } from './support/clock.js';
import type { TestApp } from './support/app.js';
import { startNfeContingencyWorld, type NfeContingencyWorld } from './support/nfe-contingency-world.js';
import { invoice } from './support/nfe-flow.js';

const clock = new ManualClock(new Date());
let t: TestApp;
let w: NfeContingencyWorld;

type Nfe = { id: string; status: string; access_key: string; protocolo: string | null; contingency: null | { type: string } };

beforeAll(async () => {
  w = await startNfeContingencyWorld(clock, { AUTHORITY_BREAKER_COOLDOWN_MS: '15000' });
  t = w.t;
});
afterAll(async () => {
  t?.simulator.setSvcActivation({ uf: 'SP', active: true });
  await w?.close();
});

const until = <T>(probe: () => Promise<T | null | false | undefined>, what: string) => w.until(probe, what);

describe('the SVC deactivated by the state', { timeout: 300_000 }, () => {
  it('113 heard by the state\'s probe, new NF-e back to the state, the SVC note cancelled at the SVC after the deactivation', async () => {
    const { accountId, auth, issuerId, cnpj } = await w.issuing();
    const get = async (id: string) => (await t.app.inject({ method: 'GET', url: `/v1/nfe/${id}`, headers: auth })).json() as Nfe;
    const stateBreaker = async () => (await t.ctx.breaker.states()).find((s) => s.service === 'NFeAutorizacao4' && s.endpoint.endsWith(`/${accountId}`) && !s.endpoint.includes('/svc-'));

    // The state down (108): the notes it answered "paralysed" go to SVC-AN (tpEmis 6), and the breaker opens.
    t.simulator.startOutage({ mode: 'unavailable', seconds: 3600, cnpj });
    const sent: Nfe[] = [];
    for (let i = 0; i < 3; i++) sent.push((await t.app.inject({ method: 'POST', url: '/v1/nfe', headers: { ...auth, prefer: 'wait=1' }, payload: invoice(issuerId) })).json());
    await until(async () => (await stateBreaker())?.state === 'open', "the state's breaker open");
    const atSvc = await until(async () => {
      const n = await get(sent[0]!.id);
      return n.status === 'authorized' ? n : null;
    }, 'the first note authorized by SVC-AN');
    expect(atSvc.access_key[34]).toBe('6');

    // The state will be back in 10 minutes: SVC-AN deactivated for SP then, 113 at its status meanwhile (K05.3).
    const off = new Date(clock.now().getTime() + 10 * 60_000);
    t.simulator.setSvcActivation({ uf: 'SP', active: false, at: off });
    const hhmm = new Date(off.getTime() - 3 * 3600_000).toISOString().slice(11, 16);
    const notice = `SVC-AN 113: Rejeicao: SVC-AN será desabilitada para a UF informada às ${hhmm}`;
    const waits: number[] = [];
    for (let probe = 0; probe < 2; probe++) {
      const before = (await stateBreaker())!;
      clock.set(new Date(Date.parse(before.next_probe_at!) + 1));
      const reports = await t.ctx.breaker.probeDueNow();
      expect(reports.find((r) => r.endpoint === before.endpoint)).toMatchObject({ claimed: true, closed: false, notice });
      const after = (await stateBreaker())!;
      expect(after.last_error).toContain(notice);
      waits.push(Date.parse(after.next_probe_at!) - Date.parse(after.last_error_at!));
    }
    // Not doubled while the SVC announces the state's return: the base cool-down, twice.
    expect(waits).toEqual([15_000, 15_000]);

    // The state answers again: its breaker closes at the next probe and a new NF-e is the state's (tpEmis 1).
    t.simulator.endOutage(cnpj);
    await until(async () => {
      await t.ctx.breaker.probeDueNow();
      return (await stateBreaker())?.state === 'closed';
    }, "the state's breaker closed");
    const back = (await t.app.inject({ method: 'POST', url: '/v1/nfe', headers: { ...auth, prefer: 'wait=5' }, payload: invoice(issuerId) })).json() as Nfe;
    const atState = await until(async () => {
      const n = await get(back.id);
      return n.status === 'authorized' ? n : null;
    }, 'the new note authorized by the state');
    expect(atState.access_key[34]).toBe('1');

    // Past the deactivation: SVC-AN says 114 for SP. Its event service's breaker, opened meanwhile, probes that
    // status: 114 concerns the reception of lots, so it closes (NT 2013.007 04.3: cancellation always there).
    clock.set(new Date(off.getTime() + 60_000));
    const cert = (await loadIssuerSigningMaterial(t.db, t.ctx.secrets, accountId, issuerId))!.certificate!;
    const target = { uf: 'SP', model: 55 as const, tpAmb: 2 as const, service: 'recepcaoEvento' as const, authorizer: 'SVC-AN' as const, certificate: t.ctx.authority.callerId(cert, accountId) };
    const now = clock.now();
    const timeout = { kind: 'timeout', phase: 'response', inDoubt: true, timing: { sentAt: now, receivedAt: now, elapsedMs: 1 } } as BreakerOutcome;
    for (let i = 0; i < 3; i++) await t.ctx.breaker.record(target, timeout);
    expect(await t.ctx.breaker.isOpen(target)).toBe(true);
    clock.advance(16_000);
    await t.ctx.breaker.probeDueNow();
    expect(await t.ctx.breaker.isOpen(target)).toBe(false);

    // The gateway cancels the SVC note at SVC-AN, which registers it (135) though it authorizes nothing for SP now.
    const cancel = await t.app.inject({ method: 'POST', url: `/v1/nfe/${atSvc.id}/cancel`, headers: auth, payload: { reason: 'Venda desfeita antes da saida da mercadoria' } });
    expect([200, 202], cancel.body).toContain(cancel.statusCode);
    await until(async () => (await get(atSvc.id)).status === 'canceled', 'the SVC note canceled');
    const events = await t.db.query<{ n_prot: string }>(`SELECT n_prot FROM sim_events WHERE access_key = $1 AND tp_evento = '110111'`, [atSvc.access_key]);
    expect(events.rows).toHaveLength(1);
  });
});
