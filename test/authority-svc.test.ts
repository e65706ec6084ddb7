import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedNfce, uniqueCnpj } from './support/authority-fixtures.js';
import { registerTestCsc, startAuthorityHarness, type AuthorityHarness } from './support/authority-harness.js';
import { nfeCancellation, RS55 } from './support/authority-nfe55.js';
import { nfe55Xml } from '../src/authority-sim/nfe55-template.js';
import { signElement } from '../src/fiscal/xml/signature/sign.js';
import type { AuthorizationOutcome } from '../src/fiscal/sefaz/outcomes.js';

// The simulated SVC-AN and SVC-RS (docs/fiscal/svc.md) at their own addresses (/svc-an/, /svc-rs/), over
// the same mutual TLS as the states: MOC B22-30 (570), B22-60 (713) and B22-70 (783) with the official
// words, and a state's outage that leaves its SVC serving.

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

  it('B22-60 (713): SVC-AN refuses tpEmis 1, and SVC-RS an SVC-AN note (tpEmis 6)', async () => {
    const message = 'Rejeição: Tipo de Emissão diferente de 6 ou 7 para contingência da SVC acessada';
    expect(rejection(await h.client.authorize({ ...RS55, authorizer: 'SVC-AN', signedNFeXml: nfe(1).xml, idLote: 1 }))).toEqual({ cStat: 713, xMotivo: message });
    expect(rejection(await h.client.authorize({ ...RS55, authorizer: 'SVC-RS', signedNFeXml: nfe(6).xml, idLote: 1 }))).toEqual({ cStat: 713, xMotivo: message });
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
});
