// SP's NFC-e EPEC end to end (docs/fiscal/offline-contingency.md#epec-sp): an SP issuer that chose `contingency.mode: epec`,
// SP's NFC-e authorizer down in the simulator (its EPEC service, a server of its own, up). A sale past the issuer's bound
// is issued again with tpEmis 4 (dhCont, xJust) under a new number; its EPEC (110140, model 65, cOrgao 35) is registered
// with SP's EPEC service (136) and kept on the note (protocol, event nfce.epec_registered); the DANFE NFC-e prints with
// the EPEC marks; SP back, the same signed note is authorized once under the same key (SP compares it with its EPEC,
// 467/468). An EPEC whose answer was lost meets 573 on the retry, is never sent again, and its protocol is read
// from SP's consultation of the key (124). With SP's authorization breaker open a sale goes straight to tpEmis 4 (no first attempt). XSD (xmllint)
// and signatures (xmlsec1) checked by tools we did not write. An issuer outside SP cannot
// choose epec (MOC B22-34, 714): 422 naming contingency.mode, in pt-BR too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from './support/clock.js';
import { createTestApp, type TestApp } from './support/app.js';
import { freshBranchCnpj, readyIssuer, sale, SP_ISSUER } from './support/nfce-flow.js';
import { pdfWorkspace } from './support/pdf-tools.js';
import { eventually } from './support/webhook-receiver.js';
import { xmllint, xmlsecVerify } from './support/xml-tools.js';
import { buildEnvEvento } from '../src/fiscal/xml/events/index.js';

const clock = new ManualClock(new Date());
const { pdfText, cleanup } = pdfWorkspace('nfce-epec-');
let t: TestApp;

type Nfce = {
  id: string; status: string; number: number; access_key: string; protocolo: string | null;
  contingency: null | { type: string; reason: string; entered_at: string; epec: null | { protocol: string | null; registered_at: string | null }; first_attempt: null | { number: number; outcome: string } };
};

beforeAll(async () => {
  t = await createTestApp({ role: 'all', clock, env: { AUTHORITY_BREAKER_FAILURES: '3' } });
  t.simulator.setClock(() => clock.now());
  await t.db.query('DELETE FROM authority_breakers');
  await t.ctx.breaker.refresh();
});
afterAll(async () => {
  t.simulator.setClock(() => new Date());
  t.simulator.setScenario(null);
  t.simulator.endOutage();
  await t.db.query('DELETE FROM authority_breakers');
  await t.runtime.close();
  cleanup();
});

/** Moves the clock (the worker's retries and backoffs) until `probe` holds. */
async function until<T>(probe: () => Promise<T | null | false | undefined>, what: string): Promise<T> {
  return eventually(async () => {
    const v = await probe();
    if (!v) {
      clock.advance(2_000);
      t.ctx.wakeWorker();
    }
    return v;
  }, 120_000, what);
}

/** NT 2014.001 3.1 (kept by SP's NFC-e EPEC): the protocol's fifteen digits. */
const PROTOCOL = /^\d{15}$/;
const flat = (s: string) => s.replace(/\s+/g, ' ');

describe("SP's NFC-e in EPEC contingency", { timeout: 300_000 }, () => {
  it('an issuer outside SP cannot choose epec: 422 naming contingency.mode (pt-BR too); SP can', async () => {
    const { auth } = await t.newAccount();
    // PR runs no NFC-e EPEC (fiscal/states/states.ts nfceEpec): its tpEmis 4 NFC-e would meet 714 (MOC B22-34).
    const pr = { ...SP_ISSUER, cnpj: freshBranchCnpj(), uf: 'PR', ie: '9022433056', endereco: { ...SP_ISSUER.endereco, codigo_municipio: '4106902', cep: '80010-000' } };
    const refused = await t.app.inject({ method: 'POST', url: '/v1/issuers', headers: auth, payload: { ...pr, contingency: { mode: 'epec' } } });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().details).toEqual([expect.objectContaining({ field: 'contingency.mode', message: expect.stringContaining('PR runs none (MOC B22-34, 714)') })]);
    const created = await t.app.inject({ method: 'POST', url: '/v1/issuers', headers: auth, payload: { ...pr, contingency: { mode: 'offline' } } });
    expect(created.statusCode, created.body).toBe(201);
    const patched = await t.app.inject({ method: 'PATCH', url: `/v1/issuers/${created.json().id}`, headers: { ...auth, 'accept-language': 'pt-BR' }, payload: { contingency: { mode: 'epec' } } });
    expect(patched.statusCode, patched.body).toBe(422);
    expect(patched.json().details[0]).toMatchObject({ field: 'contingency.mode', message: expect.stringContaining('epec exige um estado que tenha o serviço de EPEC da NFC-e (SP); PR não tem') });
    expect((await t.app.inject({ method: 'GET', url: `/v1/issuers/${created.json().id}`, headers: auth })).json().contingency.mode).toBe('offline');
    // A schema-level bad word is the schema's 4xx, naming the field.
    const bad = await t.app.inject({ method: 'PATCH', url: `/v1/issuers/${created.json().id}`, headers: auth, payload: { contingency: { mode: 'dpec' } } });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('contingency');
    const sp = await readyIssuer(t, auth, { contingency: { mode: 'epec', wait_seconds: 1 } });
    expect((await t.app.inject({ method: 'GET', url: `/v1/issuers/${sp}`, headers: auth })).json().contingency).toEqual({ mode: 'epec', wait_seconds: 1 });
  });

  it('SP down: the sale goes tpEmis 4, its EPEC registered with SP (DANFE marks), then authorized once under the same key', async () => {
    const { accountId, auth } = await t.newAccount();
    const issuerId = await readyIssuer(t, auth, { contingency: { mode: 'epec', wait_seconds: 1 } });
    const cnpj = (await t.app.inject({ method: 'GET', url: `/v1/issuers/${issuerId}`, headers: auth })).json().cnpj as string;
    t.simulator.startOutage({ mode: 'unavailable', seconds: 3600, cnpj });

    const res = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: { ...auth, prefer: 'wait=1' }, payload: sale(issuerId) });
    expect([201, 202], res.body).toContain(res.statusCode);
    const issued = await until(async () => {
      const n = (await t.app.inject({ method: 'GET', url: `/v1/nfce/${res.json().id}`, headers: auth })).json() as Nfce;
      return n.status === 'contingency' ? n : null;
    }, 'the sale switched to EPEC');
    // MOC 5.4: tpEmis is the key's 35th character; a new number, the first attempt settled apart.
    expect(issued.access_key[34]).toBe('4');
    expect(issued.contingency).toMatchObject({ type: 'epec', reason: expect.stringMatching(/SEFAZ/), first_attempt: { outcome: 'pending' } });
    expect(issued.contingency!.first_attempt!.number).not.toBe(issued.number);

    const withEpec = await until(async () => {
      const n = (await t.app.inject({ method: 'GET', url: `/v1/nfce/${issued.id}`, headers: auth })).json() as Nfce;
      return n.contingency?.epec?.protocol ? n : null;
    }, 'the EPEC registered');
    expect(withEpec.status).toBe('contingency');
    expect(withEpec.access_key).toBe(issued.access_key);
    expect(withEpec.contingency!.epec).toEqual({ protocol: expect.stringMatching(PROTOCOL), registered_at: expect.any(String) });
    // SP has authorized nothing under the key yet; the event that says the DANFE prints, once, with the protocol.
    expect(await t.simulator.authorizationsFor(issued.access_key)).toBe(0);
    const announced = await t.db.query<{ data: Nfce }>(`SELECT data FROM events WHERE subject_id = $1 AND type = 'nfce.epec_registered'`, [issued.id]);
    expect(announced.rows.map((r) => r.data.contingency?.epec?.protocol)).toEqual([withEpec.contingency!.epec!.protocol]);
    const history = (await t.app.inject({ method: 'GET', url: `/v1/nfce/${issued.id}/events`, headers: auth })).json().data as Array<{ type: string; code: string | null }>;
    expect(history.find((e) => e.type === 'epec_registered')?.code).toBe('136');

    // The EPEC as stored: its event passes SP's schemas (eventoEPEC lot schema, e110140NFCe for detEvento) and xmlsec1.
    const proc = (await t.db.query<{ p: string }>(`SELECT epec->>'proc_xml' AS p FROM notes WHERE id = $1`, [issued.id])).rows[0]!.p;
    const evento = /<evento [\s\S]*?<\/evento>/.exec(proc)![0];
    expect(evento).toContain('<cOrgao>35</cOrgao>');
    expect(evento).toContain(`<chNFe>${issued.access_key}</chNFe>`);
    const env = buildEnvEvento(1, [evento]);
    expect(await xmllint(env, 'PL_010_V1.30', 'eventoEPEC_v1.00.xsd')).toBe('');
    expect(await xmlsecVerify(env)).toBe('');

    // The DANFE NFC-e prints now, with the EPEC marks (docs/fiscal/offline-contingency.md#epec-sp).
    const danfe = await t.app.inject({ method: 'GET', url: `/v1/nfce/${issued.id}/danfe.pdf`, headers: auth });
    expect(danfe.statusCode, danfe.body.slice(0, 300)).toBe(200);
    const text = flat(await pdfText(danfe.rawPayload));
    expect(text).toContain('DANFE-NFC-e Impresso em contingência - EPEC');
    expect(text).toContain('Regularmente recebido pela administração tributária autorizadora');
    expect(text).toContain('Data de entrada em contingência');
    const escpos = await t.app.inject({ method: 'GET', url: `/v1/nfce/${issued.id}/danfe.escpos`, headers: auth });
    expect(escpos.statusCode).toBe(200);

    // Another sale's unanswered first attempt is the third failure in a row: SP's authorization breaker opens, and the
    // next sale goes straight to EPEC, with no first attempt to settle (contingency-settings.ts contingencyAtOnce).
    const another = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: { ...auth, prefer: 'wait=1' }, payload: sale(issuerId) });
    expect([201, 202], another.body).toContain(another.statusCode);
    await until(async () => {
      const states = await t.ctx.breaker.states();
      return states.find((b) => b.service === 'NFeAutorizacao4' && b.endpoint.endsWith(`/${accountId}`) && !b.endpoint.includes('/svc-'))?.state === 'open';
    }, "SP's NFC-e authorization breaker open");
    const straight = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: { ...auth, prefer: 'wait=1' }, payload: sale(issuerId) });
    expect(straight.statusCode, straight.body).toBe(201);
    expect(straight.json()).toMatchObject({ status: 'contingency', contingency: { type: 'epec', first_attempt: null } });
    expect((straight.json() as Nfce).access_key[34]).toBe('4');
    const second = await until(async () => {
      const n = (await t.app.inject({ method: 'GET', url: `/v1/nfce/${straight.json().id}`, headers: auth })).json() as Nfce;
      return n.contingency?.epec?.protocol ? n : null;
    }, 'the second EPEC registered');
    expect(second.contingency!.epec!.protocol).not.toBe(withEpec.contingency!.epec!.protocol);

    // SP back: the job's retries send the same signed note, which SP compares with its EPEC and authorizes, once.
    t.simulator.endOutage(cnpj);
    const authorized = await until(async () => {
      await t.ctx.breaker.probeDueNow();
      const n = (await t.app.inject({ method: 'GET', url: `/v1/nfce/${issued.id}`, headers: auth })).json() as Nfce;
      return n.status === 'authorized' ? n : null;
    }, 'the EPEC note authorized by SP');
    expect(authorized.access_key).toBe(issued.access_key);
    expect(authorized.contingency?.type).toBe('epec');
    expect(await t.simulator.authorizationsFor(issued.access_key)).toBe(1);
    const xml = (await t.app.inject({ method: 'GET', url: `/v1/nfce/${issued.id}/xml`, headers: auth })).body;
    expect(xml).toContain('<tpEmis>4</tpEmis>');
    expect(xml).toContain('<dhCont>');
    expect(await xmllint(xml, 'PL_009_V4', 'procNFe_v4.00.xsd')).toBe('');
    expect(await xmlsecVerify(xml)).toBe('');
    const secondDone = await until(async () => {
      const n = (await t.app.inject({ method: 'GET', url: `/v1/nfce/${second.id}`, headers: auth })).json() as Nfce;
      return n.status === 'authorized' ? n : null;
    }, 'the straight EPEC note authorized by SP');
    expect(secondDone.access_key).toBe(second.access_key);
    expect(await t.simulator.authorizationsFor(second.access_key)).toBe(1);
  });

  it('the EPEC answer lost: the retry meets 573, the EPEC is never sent again, its protocol comes from SP (124), authorized once', async () => {
    const { auth } = await t.newAccount();
    const issuerId = await readyIssuer(t, auth, { contingency: { mode: 'epec', wait_seconds: 1 } });
    const cnpj = (await t.app.inject({ method: 'GET', url: `/v1/issuers/${issuerId}`, headers: auth })).json().cnpj as string;
    t.simulator.startOutage({ mode: 'unavailable', seconds: 3600, cnpj });
    // SP's EPEC service registers the EPEC and its answer never reaches the gateway.
    t.simulator.setScenario('lost-response', { times: 1, service: 'recepcaoEvento' });
    const res = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: { ...auth, prefer: 'wait=1' }, payload: sale(issuerId) });
    expect([201, 202], res.body).toContain(res.statusCode);
    const id = res.json().id as string;
    type Line = { type: string; code: string | null };
    const history = async () => (await t.app.inject({ method: 'GET', url: `/v1/nfce/${id}/events`, headers: auth })).json().data as Line[];
    const epecLines = async () => (await history()).filter((e) => e.type === 'epec_registered').map((e) => e.code);
    // NT 2014.001 3.8: the same event Id again is 573; SP, down, cannot say the protocol yet.
    await until(async () => (await epecLines()).includes('573'), 'the resent EPEC answered 573');
    const tries = async () => (await history()).filter((e) => e.type === 'consulted').length;
    const seen = await tries();
    await until(async () => (await tries()) >= seen + 2, 'two more tries of the job');
    expect(await epecLines()).toEqual(['573']);
    const waiting = (await t.app.inject({ method: 'GET', url: `/v1/nfce/${id}`, headers: auth })).json() as Nfce;
    expect(waiting).toMatchObject({ status: 'contingency', contingency: { type: 'epec', epec: { protocol: null } } });
    // The DANFE waits for the protocol.
    expect((await t.app.inject({ method: 'GET', url: `/v1/nfce/${id}/danfe.pdf`, headers: auth })).statusCode).toBe(409);

    // SP answers again ten minutes later: MOC B09-40 (704, over 5 minutes late) binds tpEmis 1, 3, 6 and 7 only.
    clock.advance(10 * 60_000);
    t.simulator.endOutage(cnpj);
    const authorized = await until(async () => {
      await t.ctx.breaker.probeDueNow();
      const n = (await t.app.inject({ method: 'GET', url: `/v1/nfce/${id}`, headers: auth })).json() as Nfce;
      return n.status === 'authorized' ? n : null;
    }, 'the EPEC note authorized by SP');
    expect(authorized.access_key[34]).toBe('4');
    expect(authorized.contingency!.epec!.protocol).toMatch(PROTOCOL);
    expect(await t.simulator.authorizationsFor(authorized.access_key)).toBe(1);
  });
});
