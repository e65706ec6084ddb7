// NF-e in SVC contingency end to end (docs/fiscal/svc.md): the state's NF-e authorizer goes down in the
// simulator (its outage on demand, for the issuer only; the SVC stays up), the gateway's breaker of
// that service opens, and the next NF-e is made out for the state's SVC - tpEmis 6 at SVC-AN for an SP
// issuer, 7 at SVC-RS for a BA one - authorized there, cancelled there, refused a CC-e; the notes the
// state answered "paralysed" (108) are issued again for the SVC under their number (a note whose answer
// was lost stays the state's: test/nfe-svc-low-volume.test.ts); the breaker closes and new notes go back to tpEmis 1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from './support/clock.js';
import type { TestApp } from './support/app.js';
import { SP_ISSUER } from './support/nfce-flow.js';
import { startNfeContingencyWorld, type Issuing, type NfeContingencyWorld } from './support/nfe-contingency-world.js';
import { invoice } from './support/nfe-flow.js';
import { xmllint, xmlsecVerify } from './support/xml-tools.js';

const clock = new ManualClock(new Date());
let t: TestApp;
let w: NfeContingencyWorld;

type Nfe = {
  id: string; status: string; access_key: string; protocolo: string | null;
  contingency: null | { type: string; entered_at: string; reason: string };
  rejection: unknown;
};

beforeAll(async () => {
  w = await startNfeContingencyWorld(clock);
  t = w.t;
});
afterAll(async () => w?.close());

const issuing = (overrides: Parameters<NfeContingencyWorld['issuing']>[0] = {}) => w.issuing(overrides);
const get = async (who: Issuing, id: string): Promise<Nfe> => (await t.app.inject({ method: 'GET', url: `/v1/nfe/${id}`, headers: who.auth })).json();

async function post(who: Issuing, payload: object, prefer = 'wait=10'): Promise<Nfe> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/nfe', headers: { ...who.auth, prefer }, payload });
  expect([201, 202], res.body).toContain(res.statusCode);
  return res.json();
}

const until = <T>(probe: () => Promise<T | null | false | undefined>, what: string) => w.until(probe, what);
/** The account's breaker of the state's NF-e authorization (in the sandbox it is per certificate and account). */
const authorizationBreaker = (who: Issuing) => w.breaker(who.accountId, 'state');

const stored = (id: string) => w.stored(id);

/**
 * The state stops answering the issuer (108); three NF-e sent to it fail in a row and the breaker opens.
 * Each was answered 108 by the state itself (paralysed: its key was not used), so each is issued again for
 * the SVC under the same number at once, breaker open or not (docs/fiscal/svc.md#when-the-gateway-switches).
 */
async function stateDown(who: Issuing, payload: () => object, tpEmis: '6' | '7'): Promise<void> {
  t.simulator.startOutage({ mode: 'unavailable', seconds: 3600, cnpj: who.cnpj });
  const sent: Nfe[] = [];
  for (let i = 0; i < 3; i++) sent.push(await post(who, payload(), 'wait=1'));
  await until(async () => (await authorizationBreaker(who)) === 'open', 'the state\'s NF-e authorization breaker open');
  for (const n of sent) {
    const switched = await until(async () => {
      const now = await stored(n.id);
      return now.status === 'authorized' && now;
    }, 'the note authorized at the SVC');
    expect(switched.access_key[34]).toBe(tpEmis);
    const history = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${n.id}/events`, headers: who.auth })).json().data as Array<{ type: string; message: string }>;
    const line = history.find((e) => e.type === 'svc_contingency')!;
    const before = /did not take key ([0-9]{44})/.exec(line.message)![1]!;
    expect(before[34]).toBe('1');
    expect(switched.access_key.slice(25, 34)).toBe(before.slice(25, 34)); // the same number (nNF)
    expect(await t.simulator.authorizationsFor(before)).toBe(0);
    expect(await t.simulator.authorizationsFor(switched.access_key)).toBe(1);
  }
}

async function checkSvcNote(who: Issuing, note: Nfe, tpEmis: '6' | '7', uf: string): Promise<void> {
  expect(note.status, JSON.stringify(note.rejection)).toBe('authorized');
  // MOC 5.4: tpEmis is the key's 35th character.
  expect(note.access_key[34]).toBe(tpEmis);
  expect(note.contingency).toEqual({
    type: tpEmis === '6' ? 'svc_an' : 'svc_rs',
    entered_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-0[2-5]:00$/),
    reason: `Autorizador da SEFAZ ${uf} indisponivel; emissao em contingencia ${tpEmis === '6' ? 'SVC-AN' : 'SVC-RS'}`,
  });
  const xml = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${note.id}/xml`, headers: who.auth })).body;
  expect(xml).toContain(`<tpEmis>${tpEmis}</tpEmis>`);
  expect(xml).toContain(`<dhCont>${note.contingency!.entered_at}</dhCont><xJust>${note.contingency!.reason}</xJust>`);
  expect(xml).toContain(`<chNFe>${note.access_key}</chNFe>`);
  expect(await xmllint(xml, 'PL_009_V4', 'procNFe_v4.00.xsd')).toBe('');
  expect(await xmlsecVerify(xml)).toBe('');
  // The authority's books: authorized once, as an SVC note.
  const sim = await t.db.query<{ tp_emis: number; status: string }>('SELECT tp_emis, status FROM sim_notes WHERE access_key = $1', [note.access_key]);
  expect(sim.rows).toEqual([{ tp_emis: Number(tpEmis), status: 'authorized' }]);
  expect(await t.simulator.authorizationsFor(note.access_key)).toBe(1);
}

describe('NF-e in SVC contingency', { timeout: 300_000 }, () => {
  let sp: Issuing;
  let svcNotes: Nfe[] = [];

  it('SP issuer, state down: the next NF-e is authorized at SVC-AN with tpEmis 6, dhCont and xJust', async () => {
    sp = await issuing();
    await stateDown(sp, () => invoice(sp.issuerId), '6');
    const opened = Date.parse((await t.ctx.breaker.states()).find((s) => s.endpoint.endsWith(`/${sp.accountId}`) && s.service === 'NFeAutorizacao4')!.opened_at!);
    svcNotes = [await post(sp, invoice(sp.issuerId)), await post(sp, invoice(sp.issuerId))];
    for (const note of svcNotes) {
      await checkSvcNote(sp, note, '6', 'SP');
      // dhCont is when the gateway switched: the breaker's opening, before the emission.
      expect(Date.parse(note.contingency!.entered_at)).toBe(Math.floor(opened / 1000) * 1000);
    }
    // The list shows it too (a summary row).
    const list = (await t.app.inject({ method: 'GET', url: `/v1/nfe?issuer_id=${sp.issuerId}&limit=100`, headers: sp.auth })).json().data as Nfe[];
    expect(list.find((n) => n.id === svcNotes[0]!.id)?.contingency).toEqual(svcNotes[0]!.contingency);
  });

  it('a note authorized in SVC is cancelled at that SVC (the state still down), and refused a CC-e', async () => {
    const [toCancel, toCorrect] = svcNotes as [Nfe, Nfe];
    const res = await t.app.inject({ method: 'POST', url: `/v1/nfe/${toCancel.id}/cancel`, headers: sp.auth, payload: { reason: 'Pedido cancelado pelo cliente antes do envio' } });
    expect([200, 202], res.body).toContain(res.statusCode);
    const canceled = await until(async () => {
      const n = await get(sp, toCancel.id);
      return n.status === 'canceled' && n;
    }, 'the SVC note canceled');
    expect(canceled.contingency?.type).toBe('svc_an');
    const proc = await t.app.inject({ method: 'GET', url: `/v1/nfe/${toCancel.id}/xml?event=cancellation`, headers: sp.auth });
    expect(await xmllint(proc.body, 'PL_009_V4', 'procEventoCancNFe_v1.00.xsd')).toBe('');
    expect(await xmlsecVerify(proc.body)).toBe('');
    expect((await t.db.query('SELECT status FROM sim_notes WHERE access_key = $1', [toCancel.access_key])).rows).toEqual([{ status: 'canceled' }]);

    const cce = await t.app.inject({ method: 'POST', url: `/v1/nfe/${toCorrect.id}/cce`, headers: sp.auth, payload: { correction: 'Endereco do destinatario: onde se le Rua A, 1, leia-se Rua A, 10' } });
    expect(cce.statusCode).toBe(409);
    expect(cce.json()).toMatchObject({ error: 'invalid_state', message: expect.stringContaining('SVC-AN, which takes no correction letter') });
  });

  it('the state back and its breaker closed: new NF-e go to it again (tpEmis 1)', async () => {
    t.simulator.endOutage(sp.cnpj);
    await until(async () => {
      await t.ctx.breaker.probeDueNow();
      return (await authorizationBreaker(sp)) === 'closed';
    }, 'the breaker closed');
    const back = await post(sp, invoice(sp.issuerId));
    expect(back.status).toBe('authorized');
    expect(back.access_key[34]).toBe('1');
    expect(back.contingency).toBeNull();
    const xml = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${back.id}/xml`, headers: sp.auth })).body;
    expect(xml).toContain('<tpEmis>1</tpEmis>');
    expect(xml).not.toContain('<dhCont>');
  });

  it('BA issuer, state down: the NF-e goes to SVC-RS with tpEmis 7', async () => {
    const ba = await issuing({ uf: 'BA', ie: '100000306', endereco: { ...SP_ISSUER.endereco, codigo_municipio: '2927408', cep: '40020-000' } });
    const sale = () => invoice(ba.issuerId, {
      destinatario: {
        cnpj: '11222333000181', name: 'Mercado Boa Compra Ltda', indicador_ie: 'contribuinte', ie: '12345663',
        address: { street: 'Rua A', number: '1', district: 'Centro', city_code: '2927408', city: 'Salvador', uf: 'BA', cep: '40020000' },
      },
    });
    await stateDown(ba, sale, '7');
    await checkSvcNote(ba, await post(ba, sale()), '7', 'BA');
    t.simulator.endOutage(ba.cnpj);
  });
});
