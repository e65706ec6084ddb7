// NF-e in EPEC end to end (docs/fiscal/epec.md): an issuer that chose `nfe_contingency: epec`, its state's NF-e
// authorizer down in the simulator (the Ambiente Nacional up) and the gateway's breaker open. The next NF-e is
// signed with tpEmis 4, dhCont and xJust; its EPEC (110140) is registered at the simulated AN (136); the note
// answers with the EPEC's protocol, its DANFE carries the EPEC mark (pdftotext), a cancellation is refused 409
// (NT 2014.001 5.2); the state back, the same signed note is authorized under the same key and is XSD-valid.
// The EPEC's answer lost on the way back: the job's next try meets 573, the EPEC is never sent a third time, its
// protocol is read from the state's consultation of the key (124, NT 2014.001 5.6) and the note is authorized once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from './support/clock.js';
import type { TestApp } from './support/app.js';
import { freshBranchCnpj, readyIssuer, SP_ISSUER } from './support/nfce-flow.js';
import { startNfeContingencyWorld, type NfeContingencyWorld } from './support/nfe-contingency-world.js';
import { invoice } from './support/nfe-flow.js';
import { pdfWorkspace } from './support/pdf-tools.js';
import { xmllint, xmlsecVerify } from './support/xml-tools.js';

const clock = new ManualClock(new Date());
const { pdfText, cleanup } = pdfWorkspace('nfe-epec-');
let t: TestApp;
let w: NfeContingencyWorld;

type Nfe = {
  id: string; status: string; access_key: string; protocolo: string | null;
  contingency: null | { type: string; entered_at: string; reason: string; protocol?: string | null; registered_at?: string | null };
  rejection: unknown;
};

beforeAll(async () => {
  w = await startNfeContingencyWorld(clock);
  t = w.t;
});
afterAll(async () => {
  await w?.close();
  cleanup();
});

const until = <T>(probe: () => Promise<T | null | false | undefined>, what: string) => w.until(probe, what);
/** The state back: the note's retries (and the breaker's probes) until the state has authorized it. */
const authorizedByState = (auth: Record<string, string>, id: string) =>
  w.until(async () => {
    const n = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${id}`, headers: auth })).json() as Nfe;
    return n.status === 'authorized' ? n : null;
  }, 'the EPEC note authorized by the state', { probeBreakers: true });

/** The state stops answering (108) the issuer; three NF-e in a row open its NF-e authorization breaker. They stay the state's (tpEmis 1). */
async function stateDown(accountId: string, auth: Record<string, string>, issuerId: string, cnpj: string): Promise<Nfe[]> {
  t.simulator.startOutage({ mode: 'unavailable', seconds: 3600, cnpj });
  const first: Nfe[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await t.app.inject({ method: 'POST', url: '/v1/nfe', headers: { ...auth, prefer: 'wait=1' }, payload: invoice(issuerId) });
    expect([201, 202], res.body).toContain(res.statusCode);
    first.push(res.json());
  }
  await until(async () => (await w.breaker(accountId, 'state')) === 'open', "the state's NF-e authorization breaker open");
  return first;
}

/** NT 2014.001 3.1: the EPEC's protocol is 891 and twelve digits. */
const EPEC_PROTOCOL = /^891\d{12}$/;

describe('NF-e in EPEC contingency', { timeout: 300_000 }, () => {
  it('EPEC at the AN while the state is down, DANFE with the mark, 409 on cancel, then authorized under the same key', async () => {
    const { accountId, auth } = await t.newAccount();
    const issuerId = await readyIssuer(t, auth);
    const cnpj = (await t.app.inject({ method: 'GET', url: `/v1/issuers/${issuerId}`, headers: auth })).json().cnpj as string;

    // The issuer's choice: validated, shown, svc by default.
    expect((await t.app.inject({ method: 'GET', url: `/v1/issuers/${issuerId}`, headers: auth })).json().nfe_contingency).toBe('svc');
    const bad = await t.app.inject({ method: 'PATCH', url: `/v1/issuers/${issuerId}`, headers: auth, payload: { nfe_contingency: 'dpec' } });
    expect(bad.statusCode).toBeGreaterThanOrEqual(400);
    expect(bad.statusCode).toBeLessThan(500);
    expect(bad.body).toContain('nfe_contingency');
    const chosen = await t.app.inject({ method: 'PATCH', url: `/v1/issuers/${issuerId}`, headers: auth, payload: { nfe_contingency: 'epec' } });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json().nfe_contingency).toBe('epec');

    const first = await stateDown(accountId, auth, issuerId, cnpj);

    const res = await t.app.inject({ method: 'POST', url: '/v1/nfe', headers: { ...auth, prefer: 'wait=1' }, payload: invoice(issuerId) });
    expect([201, 202], res.body).toContain(res.statusCode);
    const issued = res.json() as Nfe;
    // Still processing, the note shows its key: the tpEmis 4 key is final, its EPEC's and then the state's.
    expect(issued.status).toBe('processing');
    const stored = (await t.db.query<{ access_key: string }>('SELECT access_key FROM notes WHERE id = $1', [issued.id])).rows[0]!.access_key;
    expect(issued.access_key).toBe(stored);
    // MOC 5.4: tpEmis is the key's 35th character.
    expect(issued.access_key[34]).toBe('4');
    const withEpec = await until(async () => {
      const n = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${issued.id}`, headers: auth })).json() as Nfe;
      return n.contingency?.protocol ? n : null;
    }, 'the EPEC registered');
    expect(withEpec.status).toBe('processing');
    expect(withEpec.contingency).toEqual({
      type: 'epec',
      entered_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-0[2-5]:00$/),
      reason: 'Autorizador da SEFAZ SP indisponivel; emissao em contingencia EPEC',
      protocol: expect.stringMatching(EPEC_PROTOCOL),
      registered_at: expect.any(String),
    });
    expect(withEpec.access_key).toBe(issued.access_key);
    // The webhook event that says the DANFE can be printed, with the EPEC's protocol; once.
    const announced = await t.db.query<{ data: Nfe }>(`SELECT data FROM events WHERE subject_id = $1 AND type = 'nfe.epec_registered'`, [issued.id]);
    expect(announced.rows.map((r) => r.data.contingency?.protocol)).toEqual([withEpec.contingency!.protocol]);
    expect(announced.rows[0]!.data.access_key).toBe(issued.access_key);
    // The simulated AN holds the EPEC; the state has not authorized anything under the key yet.
    expect(await t.simulator.authorizationsFor(issued.access_key)).toBe(0);
    const history = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${issued.id}/events`, headers: auth })).json().data as Array<{ type: string; code: string | null }>;
    expect(history.find((e) => e.type === 'epec_registered')?.code).toBe('136');

    // The DANFE prints before the authorization, with the NT's expression and the EPEC's protocol.
    const danfe = await t.app.inject({ method: 'GET', url: `/v1/nfe/${issued.id}/danfe.pdf`, headers: auth });
    expect(danfe.statusCode, danfe.body.slice(0, 300)).toBe(200);
    const text = await pdfText(danfe.rawPayload);
    expect(text).toContain('DANFE impresso em contingência - DPEC regularmente recebida pela Receita Federal do Brasil');
    expect(text).toContain('PROTOCOLO DO EPEC');
    expect(text).toContain(withEpec.contingency!.protocol!);

    // NT 2014.001 5.2: an EPEC cannot be cancelled; the note is authorized first.
    const cancel = await t.app.inject({ method: 'POST', url: `/v1/nfe/${issued.id}/cancel`, headers: auth, payload: { reason: 'Pedido cancelado pelo cliente antes do envio' } });
    expect(cancel.statusCode).toBe(409);
    expect(cancel.body).toContain('EPEC cannot be cancelled');

    // The state back: the job's retries send the same signed note to it, authorized under the same key.
    t.simulator.endOutage(cnpj);
    const authorized = await authorizedByState(auth, issued.id);
    expect(authorized.access_key).toBe(issued.access_key);
    expect(authorized.contingency?.type).toBe('epec');
    expect(await t.simulator.authorizationsFor(issued.access_key)).toBe(1);
    const xml = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${issued.id}/xml`, headers: auth })).body;
    expect(xml).toContain('<tpEmis>4</tpEmis>');
    expect(xml).toContain(`<chNFe>${issued.access_key}</chNFe>`);
    expect(await xmllint(xml, 'PL_009_V4', 'procNFe_v4.00.xsd')).toBe('');
    expect(await xmlsecVerify(xml)).toBe('');
    // The notes issued before the breaker opened stay the state's, authorized under their own key once it answers.
    for (const n of first) {
      const done = await until(async () => {
        const r = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${n.id}`, headers: auth })).json() as Nfe;
        return r.status === 'authorized' ? r : null;
      }, 'an earlier note authorized');
      expect(done.access_key[34]).toBe('1');
    }
  });

  it('the EPEC answer lost: the retry meets 573, the EPEC is never sent again, its protocol comes from the state (124), authorized once', async () => {
    const { accountId, auth } = await t.newAccount();
    // POST /v1/issuers takes the choice too; anything but svc or epec is a 422 naming the field.
    const refused = await t.app.inject({ method: 'POST', url: '/v1/issuers', headers: auth, payload: { ...SP_ISSUER, cnpj: freshBranchCnpj(), nfe_contingency: 'dpec' } });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().details.map((d: { field: string }) => d.field)).toContain('nfe_contingency');
    const issuerId = await readyIssuer(t, auth, { nfe_contingency: 'epec' });
    const issuer = (await t.app.inject({ method: 'GET', url: `/v1/issuers/${issuerId}`, headers: auth })).json() as { cnpj: string; nfe_contingency: string };
    expect(issuer.nfe_contingency).toBe('epec');
    await stateDown(accountId, auth, issuerId, issuer.cnpj);

    // The Ambiente Nacional registers the EPEC and its answer never reaches the gateway.
    t.simulator.setScenario('lost-response', { times: 1, service: 'recepcaoEvento' });
    const res = await t.app.inject({ method: 'POST', url: '/v1/nfe', headers: { ...auth, prefer: 'wait=1' }, payload: invoice(issuerId) });
    expect([201, 202], res.body).toContain(res.statusCode);
    const issued = res.json() as Nfe;
    expect(issued.access_key[34]).toBe('4');
    type Line = { type: string; code: string | null };
    const history = async () => (await t.app.inject({ method: 'GET', url: `/v1/nfe/${issued.id}/events`, headers: auth })).json().data as Line[];
    const epecLines = async () => (await history()).filter((e) => e.type === 'epec_registered').map((e) => e.code);
    // The next try sends the same EPEC: 573, the duplicate event (NT 2014.001 3.8 3P15-10); the state, down, cannot say its protocol yet.
    await until(async () => (await epecLines()).includes('573'), 'the resent EPEC answered 573');
    // A few more tries while the state is down: none goes to the AN again.
    const tries = async () => (await history()).filter((e) => e.type === 'consulted').length;
    const seen = await tries();
    await until(async () => (await tries()) >= seen + 2, 'two more tries of the job');
    expect(await epecLines()).toEqual(['573']);
    const waiting = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${issued.id}`, headers: auth })).json() as Nfe;
    expect(waiting).toMatchObject({ status: 'processing', access_key: issued.access_key, contingency: { type: 'epec', protocol: null } });
    const atAn = await t.db.query<{ n_prot: string }>(`SELECT n_prot FROM sim_events WHERE access_key = $1 AND tp_evento = '110140'`, [issued.access_key]);
    expect(atAn.rows).toHaveLength(1);
    expect(atAn.rows[0]!.n_prot).toMatch(EPEC_PROTOCOL);

    // The state back: its consultation of the key answers 124 "EPEC Autorizado" with the EPEC (NT 2014.001 5.6);
    // the note keeps that protocol, is announced, sent and authorized under the same key, once.
    t.simulator.endOutage(issuer.cnpj);
    const authorized = await authorizedByState(auth, issued.id);
    expect(authorized.access_key).toBe(issued.access_key);
    expect(authorized.contingency).toMatchObject({ type: 'epec', protocol: atAn.rows[0]!.n_prot });
    expect(await t.simulator.authorizationsFor(issued.access_key)).toBe(1);
    expect((await t.db.query(`SELECT 1 FROM sim_events WHERE access_key = $1 AND tp_evento = '110140'`, [issued.access_key])).rows).toHaveLength(1);
    expect(await epecLines()).toEqual(['573', '124']);
    const announced = await t.db.query<{ data: Nfe }>(`SELECT data FROM events WHERE subject_id = $1 AND type = 'nfe.epec_registered'`, [issued.id]);
    expect(announced.rows.map((r) => r.data.contingency?.protocol)).toEqual([atAn.rows[0]!.n_prot]);
  });

  it('an EPEC note the state rejects keeps its number: no later sale is given it (MOC 2AB08-10 would refuse that sale with 692)', async () => {
    const { accountId, auth } = await t.newAccount();
    const issuerId = await readyIssuer(t, auth, { nfe_contingency: 'epec' });
    const issuer = (await t.app.inject({ method: 'GET', url: `/v1/issuers/${issuerId}`, headers: auth })).json() as { cnpj: string };
    const first = await stateDown(accountId, auth, issuerId, issuer.cnpj);
    const issued = (await t.app.inject({ method: 'POST', url: '/v1/nfe', headers: { ...auth, prefer: 'wait=1' }, payload: invoice(issuerId) })).json() as Nfe;
    expect(issued.access_key[34]).toBe('4');
    const nNF = (key: string) => key.slice(25, 34);
    await until(async () => {
      const n = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${issued.id}`, headers: auth })).json() as Nfe;
      return n.contingency?.protocol ? n : null;
    }, 'the EPEC registered');

    // The state back, and every note it receives now refused (467, the note diverging from its EPEC, for all four:
    // a scenario of the simulator): the three tpEmis 1 notes give their numbers back, the EPEC note does not.
    t.simulator.setScenario('reject:467', { times: 4, service: 'autorizacao' });
    t.simulator.endOutage(issuer.cnpj);
    for (const note of [...first, issued]) {
      await until(async () => {
        await t.ctx.breaker.probeDueNow();
        const n = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${note.id}`, headers: auth })).json() as Nfe;
        return n.status === 'rejected' ? n : null;
      }, `note ${note.id} rejected`);
    }
    t.simulator.setScenario(null);
    const keys = await t.db.query<{ id: string; access_key: string }>('SELECT id, access_key FROM notes WHERE id = ANY($1)', [first.map((n) => n.id)]);
    const released = keys.rows.map((r) => nNF(r.access_key));
    expect(released).toHaveLength(3);
    const next: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/nfe', headers: { ...auth, prefer: 'wait=5' }, payload: invoice(issuerId) });
      expect([201, 202], res.body).toContain(res.statusCode);
      const id = (res.json() as Nfe).id;
      const done = await until(async () => {
        const n = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${id}`, headers: auth })).json() as Nfe;
        return n.status === 'authorized' ? n : null;
      }, 'a later sale authorized');
      next.push(nNF(done.access_key));
    }
    // The released numbers of the tpEmis 1 notes are reused; the EPEC note's never.
    expect(next).not.toContain(nNF(issued.access_key));
    expect(next).toEqual(expect.arrayContaining(released));
  });

  it('485, an EPEC of another key holding the number: rejected before the state, number kept; 142 names the pending keys (chNFePend) and gives its number back', async () => {
    const { accountId, auth } = await t.newAccount();
    const issuerId = await readyIssuer(t, auth, { nfe_contingency: 'epec' });
    const issuer = (await t.app.inject({ method: 'GET', url: `/v1/issuers/${issuerId}`, headers: auth })).json() as { cnpj: string };
    const first = await stateDown(accountId, auth, issuerId, issuer.cnpj);
    const numbers = (await t.db.query<{ serie: number; number: number }>('SELECT serie, number FROM notes WHERE id = ANY($1)', [first.map((n) => n.id)])).rows;
    const next = Math.max(...numbers.map((r) => Number(r.number))) + 1;
    // MOC 5.4: cUF, AAMM, CNPJ, model and series lead the key (SP is 35; AAMM in Brasília time).
    const aamm = new Date(clock.now().getTime() - 3 * 3600_000).toISOString().slice(2, 7).replace('-', '');
    const prefix = `35${aamm}${issuer.cnpj}55${String(numbers[0]!.serie).padStart(3, '0')}`;
    // Somebody else's EPEC (another cNF, so another key) already holds the next number at the simulated AN (NT 2014.001 3P12-10).
    const other = `${prefix}${String(next).padStart(9, '0')}4999999990`;
    const fakeEpec = (key: string, at: Date, n: number) => t.db.query(
      `INSERT INTO sim_events (tenant, event_id, access_key, tp_evento, n_seq, n_prot, registered_at, proc_xml) VALUES ($1, $2, $3, '110140', 1, $4, $5, '<procEventoNFe/>')`,
      [accountId, `ID110140${key}01`, key, `8912600000${String(n).padStart(5, '0')}`, at]);
    await fakeEpec(other, clock.now(), 1);

    const issued = (await t.app.inject({ method: 'POST', url: '/v1/nfe', headers: { ...auth, prefer: 'wait=1' }, payload: invoice(issuerId) })).json() as Nfe;
    // The API hides the key of a rejected note (it was not used); the stored one is the tpEmis 4 key of the next number.
    const ownKey = (await t.db.query<{ access_key: string }>('SELECT access_key FROM notes WHERE id = $1', [issued.id])).rows[0]!.access_key;
    expect([Number(ownKey.slice(25, 34)), ownKey[34]]).toEqual([next, '4']);
    expect(ownKey).not.toBe(other);
    const rejectedNote = async (id: string) => until(async () => {
      const n = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${id}`, headers: { ...auth, 'accept-language': 'pt-BR' } })).json() as Nfe & { rejection: { code: string; message: string; hint: string } };
      return n.status === 'rejected' ? n : null;
    }, `note ${id} rejected`);
    const refused = await rejectedNote(issued.id);
    expect(refused.rejection.code).toBe('485');
    expect(refused.rejection.message).toContain(`another access key's EPEC holds series`);
    expect(refused.rejection.hint).toContain('outra chave de acesso para esta série e número');
    // Never sent to the state (it would meet 691 there), and no EPEC of its own at the AN.
    const history = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${issued.id}/events`, headers: auth })).json().data as Array<{ type: string }>;
    expect(history.map((e) => e.type)).not.toContain('transmitted');
    expect((await t.db.query(`SELECT 1 FROM sim_events WHERE access_key = $1`, [ownKey])).rows).toHaveLength(0);
    expect(await t.simulator.authorizationsFor(ownKey)).toBe(0);

    // An EPEC of the issuer pending conciliation for more than 168 hours: the AN blocks EPEC (142) and lists its key.
    const stale = `${prefix}${String(next + 500).padStart(9, '0')}4888888880`;
    await fakeEpec(stale, new Date(clock.now().getTime() - 169 * 3600_000), 2);
    const blocked = (await t.app.inject({ method: 'POST', url: '/v1/nfe', headers: { ...auth, prefer: 'wait=1' }, payload: invoice(issuerId) })).json() as Nfe;
    const said = await rejectedNote(blocked.id);
    expect(said.rejection.code).toBe('142');
    expect(said.rejection.message).toContain(`[chNFePend: ${stale}]`);
    expect(said.rejection.hint).toContain(`Chaves pendentes de conciliação: ${stale}.`);
    const inEnglish = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${blocked.id}`, headers: auth })).json() as { rejection: { hint: string } };
    expect(inEnglish.rejection.hint).toContain(`Keys pending conciliation: ${stale}.`);

    // The first number is the other EPEC's (485, MOC 2AB08-10/20): no later sale gets it. The second's EPEC was refused
    // (142): it is in nobody's books, never printed, never sent, so it goes to the next sale.
    // The state back (the three first notes authorized, its breaker closed), a new sale goes to it with tpEmis 1.
    t.simulator.endOutage(issuer.cnpj);
    for (const n of first) {
      await until(async () => {
        await t.ctx.breaker.probeDueNow();
        return ((await t.app.inject({ method: 'GET', url: `/v1/nfe/${n.id}`, headers: auth })).json() as Nfe).status === 'authorized';
      }, 'an earlier note authorized');
    }
    const later = (await t.app.inject({ method: 'POST', url: '/v1/nfe', headers: { ...auth, prefer: 'wait=5' }, payload: invoice(issuerId) })).json() as Nfe;
    const done = await until(async () => {
      const n = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${later.id}`, headers: auth })).json() as Nfe;
      return n.status === 'authorized' ? n : null;
    }, 'a later sale authorized');
    expect(Number(done.access_key.slice(25, 34))).toBe(next + 1);
    expect(done.access_key[34]).toBe('1');
  });
});
