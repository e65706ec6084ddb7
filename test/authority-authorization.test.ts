import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedNfce, uniqueCnpj } from './support/authority-fixtures.js';
import { BA, registerTestCsc, startAuthorityHarness, type AuthorityHarness } from './support/authority-harness.js';
import { checkEnvelopedSignature } from '../src/authority-sim/signature-check.js';

let h: AuthorityHarness;
let cnpj: string;
let nNF = 1;

beforeAll(async () => {
  h = await startAuthorityHarness();
  cnpj = uniqueCnpj();
  await registerTestCsc(h.sim, cnpj);
});
afterAll(() => h.close());

const authorize = (xml: string, headers?: Record<string, string>) =>
  h.client.authorize({ ...BA, signedNFeXml: xml, idLote: 1, ...(headers ? { headers } : {}) });

describe('authorization over mutual TLS', () => {
  it('authorizes a valid NFC-e with a signed 15-digit protocol and keeps the protNFe bytes', async () => {
    const { xml, accessKey } = signedNfce(h.issuer, { cnpj, nNF: nNF++ });
    const out = await authorize(xml);
    expect(out.kind, JSON.stringify(out)).toBe('authorized');
    if (out.kind !== 'authorized') return;
    expect(out.cStat).toBe(100);
    expect(out.protocol.info.accessKey).toBe(accessKey);
    expect(out.protocol.info.nProt).toMatch(/^129[0-9]{12}$/);
    expect(out.responseXml).toContain(out.protocol.protNFeXml);
    // The protocol is signed by the simulator the way SEFAZ signs it: infProt Id="ID<nProt>".
    const prot = out.protocol.protNFeXml.replace('<protNFe versao="4.00">', '<protNFe xmlns="http://www.portalfiscal.inf.br/nfe" versao="4.00">');
    expect(checkEnvelopedSignature(prot, 'infProt').ok).toBe(true);
    expect(await h.sim.authorizationsFor(accessKey)).toBe(1);
  });
});
