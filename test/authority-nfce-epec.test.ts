import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNfce } from '../src/documents/nfce/domain/build-nfce.js';
import { serviceOfPath } from '../src/authority-sim/sim-router.js';
import { buildEpecNfceEvent, epecSummaryOfNfce } from '../src/fiscal/xml/events/index.js';
import type { EventOutcome } from '../src/fiscal/sefaz/outcomes.js';
import { resolveNfceEpecEndpoint } from '../src/fiscal/sefaz/endpoints.js';
import { brasiliaTime, TEST_CSC, uniqueCnpj } from './support/authority-fixtures.js';
import { registerTestCsc, startAuthorityHarness, type AuthorityHarness } from './support/authority-harness.js';
import { NUMERIC_ISSUER, simpleSale, testContext } from './support/nfce-fixtures.js';

// docs/fiscal/offline-contingency.md#epec-sp: SP's NFC-e EPEC (110140, model 65) at the simulated SP, and SP's
// authorization of a tpEmis 4 NFC-e against it (NT 2014/003 05.1: 467, 468); MOC B22-34 (714) elsewhere.
let h: AuthorityHarness;
let cnpj: string;
let nNF = 1;
const SP = { uf: 'SP', model: 65 as const, tpAmb: 2 as const };

beforeAll(async () => {
  h = await startAuthorityHarness();
  cnpj = uniqueCnpj();
  await registerTestCsc(h.sim, cnpj);
});
afterAll(() => h.close());

const cStatOf = (o: EventOutcome) => ('cStat' in o ? Number(o.cStat) : o.kind);
/** An SP NFC-e written by the gateway's own builder, in EPEC (tpEmis 4) unless told otherwise. */
const note = (over: { tpEmis?: 1 | 4; uf?: 'SP' | 'RJ' } = {}) => {
  const issuer = over.uf === 'RJ'
    ? { ...NUMERIC_ISSUER, cnpj, uf: 'RJ', ie: '81733840', endereco: { ...NUMERIC_ISSUER.endereco, codigo_municipio: '3304557', municipio: 'Rio de Janeiro' } }
    : { ...NUMERIC_ISSUER, cnpj };
  const tpEmis = over.tpEmis ?? 4;
  return buildNfce(simpleSale(), testContext(issuer, {
    nNF: nNF++, emittedAt: new Date(), signingKey: h.issuer.signingKey, csc: { id: TEST_CSC.id, token: TEST_CSC.token },
    tpEmis, ...(tpEmis === 4 ? { contingency: { at: new Date(Date.now() - 60_000), reason: 'SEFAZ-SP sem resposta na autorizacao' } } : {}),
  }));
};
const epecOf = (xml: string, over: { vNF?: string } = {}) => {
  const s = epecSummaryOfNfce(xml)!;
  return buildEpecNfceEvent({ ...s, ...over, cOrgao: '35', tpAmb: 2, author: { CNPJ: cnpj }, dhEvento: brasiliaTime(new Date()), verAplic: 'gateway-test' }, h.issuer.signingKey).xml;
};
const toEpec = (xml: string) => h.client.sendNfceEpec({ uf: 'SP', tpAmb: 2, signedEventXml: xml, idLote: 1 });
const toState = (xml: string) => h.client.authorize({ ...SP, signedNFeXml: xml, idLote: 1 });

describe("SP's NFC-e EPEC", () => {
  it('is served at the published paths (EPECws/RecepcaoEPEC.asmx, EPECStatusServico.asmx), which the client reads from the table', () => {
    expect(resolveNfceEpecEndpoint('SP', 1)).toMatchObject({ url: 'https://nfce.epec.fazenda.sp.gov.br/EPECws/RecepcaoEPEC.asmx', version: '1.00', authorizer: 'SP' });
    expect(resolveNfceEpecEndpoint('35', 2).url).toBe('https://homologacao.nfce.epec.fazenda.sp.gov.br/EPECws/RecepcaoEPEC.asmx');
    expect(() => resolveNfceEpecEndpoint('RJ', 2)).toThrow(RangeError);
    expect(serviceOfPath('/EPECws/RecepcaoEPEC.asmx')).toBe('recepcaoEvento');
    expect(serviceOfPath('/EPECws/EPECStatusServico.asmx')).toBe('statusServico');
  });

  it('registers the EPEC of a tpEmis 4 NFC-e (136), then authorizes the note under the same key', async () => {
    const n = note();
    expect(n.accessKey.charAt(34)).toBe('4');
    const out = await toEpec(epecOf(n.xml));
    expect(out.kind === 'registered' && out.event).toMatchObject({ cStat: 136, tpEvento: '110140' });
    const auth = await toState(n.xml);
    expect(auth.kind).toBe('authorized');
    expect(auth.kind === 'authorized' && auth.protocol.info.accessKey).toBe(n.accessKey);
  });

  it('468 for a tpEmis 4 NFC-e without its EPEC; 467 naming vNF when the note diverges from its EPEC', async () => {
    const alone = await toState(note().xml);
    expect(alone.kind === 'rejected' && alone.cStat).toBe(468);
    const n = note();
    expect(cStatOf(await toEpec(epecOf(n.xml, { vNF: '99.00' })))).toBe(136);
    const diverging = await toState(n.xml);
    expect(diverging.kind === 'rejected' && diverging.cStat).toBe(467);
    expect(diverging.kind === 'rejected' && diverging.xMotivo).toContain('vNF');
  });

  it('a normal NFC-e of SP needs no EPEC, and the same EPEC twice is 573', async () => {
    expect((await toState(note({ tpEmis: 1 }).xml)).kind).toBe('authorized');
    const e = epecOf(note().xml);
    expect(cStatOf(await toEpec(e))).toBe(136);
    expect(cStatOf(await toEpec(e))).toBe(573);
  });

  it("the builder refuses tpEmis 4 for a state that runs no NFC-e EPEC (MOC B22-34's 714 there)", () => {
    expect(() => note({ uf: 'RJ' })).toThrow(/runs no NFC-e EPEC/);
  });
});
