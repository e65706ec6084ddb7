import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brasiliaTime, signedNfce, uniqueCnpj } from './support/authority-fixtures.js';
import { buildCorrectionLetterEvent } from '../src/fiscal/xml/events/cce-event.js';
import { registerTestCsc, startAuthorityHarness, type AuthorityHarness } from './support/authority-harness.js';
import { nfeCancellation, RS55 } from './support/authority-nfe55.js';
import { nfe55Xml } from '../src/authority-sim/nfe55-template.js';
import { signElement } from '../src/fiscal/xml/signature/sign.js';
import type { AuthorizationOutcome } from '../src/fiscal/sefaz/outcomes.js';

// The simulated SVC-AN and SVC-RS (docs/fiscal/svc.md) at their own addresses (/svc-an/, /svc-rs/), over
// the same mutual TLS as the states: MOC B22-30 (570), B22-60 (713), B22-70 (783) and B05 (410, a state the
// SVC does not serve) with the official words; an SVC the state has not activated (114, NT 2013.007); a
// state's outage that leaves its SVC serving, and the SVC's own outage.

let h: AuthorityHarness;
let cnpj: string;
let nNF = 1;

beforeAll(async () => {
  h = await startAuthorityHarness();
  cnpj = uniqueCnpj();
  await registerTestCsc(h.sim, cnpj);
});
afterAll(async () => {
  h.sim.endOutage();
  await h.close();
});

const recipient = '11222333000181';
const nfe = (tpEmis: 1 | 6) => {
  const { xml, accessKey } = nfe55Xml({ emitCnpj: cnpj, dest: { CNPJ: recipient }, nNF: nNF++, dhEmi: new Date(), tpEmis });
  return { xml: signElement(xml, 'infNFe', h.issuer.signingKey).xml, accessKey };
};
const rejection = (out: AuthorizationOutcome) => (out.kind === 'rejected' ? { cStat: out.cStat, xMotivo: out.xMotivo } : { kind: out.kind });

describe('the SVC authorizers of the simulator', () => {
  it('B22-30 (570): the state\'s authorizer refuses an NF-e made out for the SVC (tpEmis 6)', async () => {
    const out = await h.client.authorize({ ...RS55, signedNFeXml: nfe(6).xml, idLote: 1 });
    expect(rejection(out)).toEqual({ cStat: 570, xMotivo: 'Rejeição: Tipo de Emissão 3, 6 ou 7 só é válido nas contingências SCAN/SVC' });
  });

  it('B22-60 (713): SVC-AN refuses tpEmis 1 from a state it serves (RS)', async () => {
    const message = 'Rejeição: Tipo de Emissão diferente de 6 ou 7 para contingência da SVC acessada';
    expect(rejection(await h.client.authorize({ ...RS55, authorizer: 'SVC-AN', signedNFeXml: nfe(1).xml, idLote: 1 }))).toEqual({ cStat: 713, xMotivo: message });
  });

  it('B05 (410): SVC-RS refuses the note of a state SVC-AN serves (RS), whatever its tpEmis; its status too', async () => {
    const message = 'Rejeição: UF informada no campo cUF não é atendida pelo Web Service';
    expect(rejection(await h.client.authorize({ ...RS55, authorizer: 'SVC-RS', signedNFeXml: nfe(6).xml, idLote: 1 }))).toEqual({ cStat: 410, xMotivo: message });
    expect(await h.client.status({ ...RS55, authorizer: 'SVC-RS' })).toMatchObject({ kind: 'stopped', cStat: 410 });
  });

  it('114: SVC-AN deactivated for RS refuses its notes and says so at its status; activated again, it authorizes', async () => {
    h.sim.setSvcActivation({ uf: 'RS', active: false });
    try {
      const { xml, accessKey } = nfe(6);
      // The gateway's client reads 114 as "not there for this state now" (outcomes.ts): the key was not used.
      expect(await h.client.authorize({ ...RS55, authorizer: 'SVC-AN', signedNFeXml: xml, idLote: 1 })).toMatchObject({
        kind: 'unavailable', cStat: 114, xMotivo: 'Rejeição: SVC não ativada para a SEFAZ do Emitente',
      });
      expect(await h.client.status({ ...RS55, authorizer: 'SVC-AN' })).toMatchObject({ kind: 'stopped', cStat: 114, xMotivo: 'Rejeição: SVC-AN desabilitada pela SEFAZ de Origem' });
      expect(h.sim.svcActivations()).toEqual([{ uf: 'RS', tenant: null, active: false }]);
      // Another state SVC-AN serves is not touched.
      expect(await h.client.status({ uf: 'SP', model: 55, tpAmb: 2, authorizer: 'SVC-AN' })).toMatchObject({ kind: 'in-operation', cStat: 107 });
      h.sim.setSvcActivation({ uf: 'RS', active: true });
      expect(await h.client.authorize({ ...RS55, authorizer: 'SVC-AN', signedNFeXml: xml, idLote: 1 })).toMatchObject({ kind: 'authorized' });
      expect(await h.sim.authorizationsFor(accessKey)).toBe(1);
    } finally {
      h.sim.setSvcActivation({ uf: 'RS', active: true });
    }
  });

  it('B28-30 (558): an SVC note whose dhCont is after the reception (past the 5 minutes\' tolerance)', async () => {
    // An hour after now, at the offset of Brasília (-03:00).
    const later = new Date(Date.now() + 3600_000 - 3 * 3600_000).toISOString().slice(0, 19) + '-03:00';
    const made = nfe55Xml({ emitCnpj: cnpj, dest: { CNPJ: recipient }, nNF: nNF++, dhEmi: new Date(), tpEmis: 6 }).xml;
    const xml = made.replace(/<dhCont>[^<]+<\/dhCont>/, `<dhCont>${later}</dhCont>`);
    expect(xml).toContain(`<dhCont>${later}</dhCont>`);
    const out = await h.client.authorize({ ...RS55, authorizer: 'SVC-AN', signedNFeXml: signElement(xml, 'infNFe', h.issuer.signingKey).xml, idLote: 1 });
    expect(rejection(out)).toEqual({ cStat: 558, xMotivo: 'Rejeição: Data de entrada em contingência posterior a data de recebimento.' });
  });

  it('an outage of the SVCs (authorizer svc) leaves the state serving, and the other way round', async () => {
    h.sim.startOutage({ mode: 'unavailable:109', seconds: 3600, cnpj, authorizer: 'svc' });
    try {
      expect(await h.client.status({ ...RS55, authorizer: 'SVC-AN' })).toMatchObject({ kind: 'stopped', cStat: 109 });
      expect(await h.client.status(RS55)).toMatchObject({ kind: 'in-operation', cStat: 107 });
    } finally {
      h.sim.endOutage(cnpj);
    }
    expect(await h.client.status({ ...RS55, authorizer: 'SVC-AN' })).toMatchObject({ kind: 'in-operation', cStat: 107 });
  });

  it('B22-70 (783): SVC-RS authorizes no NFC-e', async () => {
    // The QR code of the same sale made out for the state: the XSD's online QR pattern admits no key of
    // tpEmis 7 (225 would come first); the QR key differing from the Id is a later rule than B22-70.
    const n = nNF++;
    const online = /<qrCode>([^<]+)<\/qrCode>/.exec(signedNfce(h.issuer, { cnpj, nNF: n }).xml)![1]!;
    const { xml } = signedNfce(h.issuer, { cnpj, nNF: n, tpEmis: 7, qr: () => online });
    const out = await h.client.authorize({ uf: 'BA', model: 65, tpAmb: 2, authorizer: 'SVC-RS', signedNFeXml: xml, idLote: 1 });
    expect(rejection(out)).toEqual({ cStat: 783, xMotivo: 'Rejeição: NFC-e não é autorizada pela SVC' });
  });

  it('while the issuer\'s state is down (108), SVC-AN authorizes, consults and cancels its tpEmis 6 note', async () => {
    h.sim.startOutage({ mode: 'unavailable', seconds: 3600, cnpj });
    const state = await h.client.authorize({ ...RS55, signedNFeXml: nfe(1).xml, idLote: 1 });
    expect(state).toMatchObject({ kind: 'unavailable', cStat: 108 });

    const { xml, accessKey } = nfe(6);
    const at = { ...RS55, authorizer: 'SVC-AN' as const };
    const out = await h.client.authorize({ ...at, signedNFeXml: xml, idLote: 1 });
    expect(out.kind, JSON.stringify(out)).toBe('authorized');
    if (out.kind !== 'authorized') return;
    expect(accessKey[34]).toBe('6');
    expect(await h.sim.authorizationsFor(accessKey)).toBe(1);
    expect(await h.client.consult({ ...at, accessKey })).toMatchObject({ kind: 'authorized', cStat: 100 });

    const cancelled = await h.client.sendEvent({ ...at, signedEventXml: nfeCancellation(h, { cnpj, accessKey, nProt: out.protocol.info.nProt! }) });
    expect(cancelled).toMatchObject({ kind: 'registered', event: { cStat: 135 } });
    expect(await h.client.consult({ ...at, accessKey })).toMatchObject({ kind: 'canceled' });
  });

  it('an SVC voids no numbers: NFeInutilizacao4 has no address there', async () => {
    expect(() => h.client.inutilize({ ...RS55, authorizer: 'SVC-AN', signedInutNFeXml: '<inutNFe/>' })).toThrow(/SVC-AN serves no inutilizacao/);
  });

  it('113 in the 15 minutes before a deactivation (K05.3), the SVC still authorizing; 114 after; consultation and cancellation of its own notes go on (04.3, 04.6); any other event 491 (04.4)', async () => {
    const at = { ...RS55, authorizer: 'SVC-AN' as const };
    let offset = 0;
    h.sim.setClock(() => new Date(Date.now() + offset));
    try {
      const { xml, accessKey } = nfe(6);
      const out = await h.client.authorize({ ...at, signedNFeXml: xml, idLote: 1 });
      expect(out.kind, JSON.stringify(out)).toBe('authorized');
      if (out.kind !== 'authorized') return;
      // The state's authorizer due back in 20 minutes: the SVC-AN will be deactivated for RS then.
      const off = new Date(Date.now() + 20 * 60_000);
      h.sim.setSvcActivation({ uf: 'RS', active: false, at: off });
      expect(await h.client.status(at)).toMatchObject({ cStat: 107 });
      offset = 6 * 60_000;
      // K05.3, HH:MM in Brasília time (UTC-3).
      const hhmm = new Date(off.getTime() - 3 * 3600_000).toISOString().slice(11, 16);
      expect(await h.client.status(at)).toMatchObject({ cStat: 113, xMotivo: `Rejeicao: SVC-AN será desabilitada para a UF informada às ${hhmm}` });
      // NT 2013.007 item 03: both environments answer during those 15 minutes.
      expect((await h.client.authorize({ ...at, signedNFeXml: nfe(6).xml, idLote: 1 })).kind).toBe('authorized');
      expect(h.sim.svcActivations()).toEqual([{ uf: 'RS', tenant: null, active: false, at: off.toISOString() }]);
      offset = 21 * 60_000;
      expect(await h.client.status(at)).toMatchObject({ cStat: 114 });
      expect(await h.client.authorize({ ...at, signedNFeXml: nfe(6).xml, idLote: 1 })).toMatchObject({ kind: 'unavailable', cStat: 114 });
      // 04.6 and 04.3: "sempre estará disponível" for the notes the SVC authorized itself.
      expect(await h.client.consult({ ...at, accessKey })).toMatchObject({ kind: 'authorized', cStat: 100 });
      const cce = buildCorrectionLetterEvent({ cOrgao: '43', tpAmb: 2, author: { CNPJ: cnpj }, chNFe: accessKey, dhEvento: brasiliaTime(new Date(Date.now() + offset)), nSeqEvento: 1, xCorrecao: 'Corrigir o endereco de entrega do destinatario' }, h.issuer.signingKey).xml;
      expect(await h.client.sendEvent({ ...at, signedEventXml: cce })).toMatchObject({ kind: 'rejected', cStat: 491 });
      const cancelled = await h.client.sendEvent({ ...at, signedEventXml: nfeCancellation(h, { cnpj, accessKey, nProt: out.protocol.info.nProt! }) });
      expect(cancelled).toMatchObject({ kind: 'registered', event: { cStat: 135 } });
    } finally {
      h.sim.setSvcActivation({ uf: 'RS', active: true });
      h.sim.setClock(() => new Date());
    }
  });
});
