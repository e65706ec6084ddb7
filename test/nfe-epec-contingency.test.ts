// NF-e in EPEC end to end (docs/fiscal/epec.md): an issuer that chose `nfe_contingency: epec`, its state's NF-e
// authorizer down in the simulator (the Ambiente Nacional up) and the gateway's breaker open. The next NF-e is
// signed with tpEmis 4, dhCont and xJust; its EPEC (110140) is registered at the simulated AN (136); the note
// answers with the EPEC's protocol, its DANFE carries the EPEC mark (pdftotext), a cancellation is refused 409
// (NT 2014.001 5.2); the state back, the same signed note is authorized under the same key and is XSD-valid.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from './support/clock.js';
import { createTestApp, type TestApp } from './support/app.js';
import { readyIssuer } from './support/nfce-flow.js';
import { invoice } from './support/nfe-flow.js';
import { pdfWorkspace } from './support/pdf-tools.js';
import { eventually } from './support/webhook-receiver.js';
import { xmllint, xmlsecVerify } from './support/xml-tools.js';

const clock = new ManualClock(new Date());
const { pdfText, cleanup } = pdfWorkspace('nfe-epec-');
let t: TestApp;

type Nfe = {
  id: string; status: string; access_key: string; protocolo: string | null;
  contingency: null | { type: string; entered_at: string; reason: string; protocol?: string | null; registered_at?: string | null };
  rejection: unknown;
};

beforeAll(async () => {
  t = await createTestApp({ role: 'all', clock, env: { AUTHORITY_BREAKER_FAILURES: '3' } });
  t.simulator.setClock(() => clock.now());
  await t.db.query('DELETE FROM authority_breakers');
  await t.ctx.breaker.refresh();
});
afterAll(async () => {
  t.simulator.setClock(() => new Date());
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

    // The state stops answering (108) this issuer; three NF-e in a row open the breaker. They stay the state's (tpEmis 1).
    t.simulator.startOutage({ mode: 'unavailable', seconds: 3600, cnpj });
    const first: Nfe[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/nfe', headers: { ...auth, prefer: 'wait=1' }, payload: invoice(issuerId) });
      expect([201, 202], res.body).toContain(res.statusCode);
      first.push(res.json());
    }
    await until(async () => {
      const states = await t.ctx.breaker.states();
      return states.find((s) => s.service === 'NFeAutorizacao4' && s.endpoint.endsWith(`/${accountId}`) && !s.endpoint.includes('/svc-'))?.state === 'open';
    }, "the state's NF-e authorization breaker open");

    const res = await t.app.inject({ method: 'POST', url: '/v1/nfe', headers: { ...auth, prefer: 'wait=1' }, payload: invoice(issuerId) });
    expect([201, 202], res.body).toContain(res.statusCode);
    const issued = res.json() as Nfe;
    // The API shows the key once the note is authorized; the stored one is the key of the EPEC.
    issued.access_key = (await t.db.query<{ access_key: string }>('SELECT access_key FROM notes WHERE id = $1', [issued.id])).rows[0]!.access_key;
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
      protocol: expect.stringMatching(/^\d{15}$/),
      registered_at: expect.any(String),
    });
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
    const authorized = await until(async () => {
      await t.ctx.breaker.probeDueNow();
      const n = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${issued.id}`, headers: auth })).json() as Nfe;
      return n.status === 'authorized' ? n : null;
    }, 'the EPEC note authorized by the state');
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
});
