import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { xmllint } from '../../../test/support/xml-tools.js';
import { summarizeDfe } from './dfe-documents.js';
import { buildDistDFeInt, parseDistributionAnswer, type DistributionOutcome } from './distribution.js';
import { distributionWaitMs, nextDistribution, DISTRIBUTION_WAIT_MS } from './distribution-pacing.js';
import { resolveNationalEndpoint } from './national-endpoints.js';

const root = resolve(import.meta.dirname, '../../..');
const sample = (f: string) => readFileSync(join(root, 'test/fixtures/samples', f), 'utf8');
const timing = { sentAt: new Date(0), receivedAt: new Date(0), elapsedMs: 0 };
const docs = (o: DistributionOutcome) => (o.kind === 'documents' ? o.documents : []);
const noDeclaration = (xml: string) => xml.replace(/^<\?xml[^>]*\?>/, '').trim();

describe('distDFeInt request', () => {
  it('writes the three queries valid against distDFeInt_v1.01 (both packages)', async () => {
    const interested = { CNPJ: '11222333000181' };
    const requests = [
      buildDistDFeInt({ tpAmb: 1, interested, cUFAutor: '35', query: { ultNSU: 0 } }),
      buildDistDFeInt({ tpAmb: 2, interested: { CPF: '12345678909' }, query: { NSU: '102' } }),
      buildDistDFeInt({ tpAmb: 2, interested, query: { chNFe: '35260311444777000161550010000123451876543216' } }),
    ];
    expect(requests[0]).toBe(
      '<distDFeInt xmlns="http://www.portalfiscal.inf.br/nfe" versao="1.01"><tpAmb>1</tpAmb><cUFAutor>35</cUFAutor><CNPJ>11222333000181</CNPJ>' +
        '<distNSU><ultNSU>000000000000000</ultNSU></distNSU></distDFeInt>',
    );
    for (const xml of requests) for (const pkg of ['PL_009_V4', 'PL_010_V1.30'] as const) expect(await xmllint(xml, pkg, 'distDFeInt_v1.01.xsd')).toBe('');
    expect(() => buildDistDFeInt({ tpAmb: 1, interested, query: { ultNSU: '1234567890123456' } })).toThrow(RangeError);
  });
});

describe('retDistDFeInt answer', () => {
  it('138: NSUs, schemas, the gunzipped documents byte for byte and their summaries', async () => {
    const out = parseDistributionAnswer(sample('responses/retDistDFeInt_138_resNFe_resEvento_sintetico.xml'), timing);
    expect(out).toMatchObject({ kind: 'documents', cStat: 138, ultNSU: '000000000000102', maxNSU: '000000000000102' });
    const [res, ev] = docs(out);
    expect(res).toMatchObject({ nsu: '000000000000101', schema: 'resNFe_v1.01.xsd' });
    expect(noDeclaration(res!.xml!)).toBe(noDeclaration(sample('responses/resNFe_v1.01_sintetico.xml')));
    expect(res!.summary).toEqual({
      kind: 'resNFe', accessKey: '35260311444777000161550010000123451876543216', issuer: { CNPJ: '11444777000161' },
      issuerName: 'FORNECEDOR EXEMPLO LTDA', issuerIE: '111111111119', dhEmi: '2026-03-09T14:30:00-03:00', tpNF: '1', vNF: '1500.00',
      digVal: 'vFL68WETQ+mvj1aJAMDx+oVi928=', dhRecbto: '2026-03-09T14:30:05-03:00', nProt: '135260000123456', cSitNFe: '1',
    });
    expect(await xmllint(res!.xml!, 'PL_009_V4', 'resNFe_v1.01.xsd')).toBe('');
    expect(ev).toMatchObject({ nsu: '000000000000102', schema: 'resEvento_v1.01.xsd' });
    expect(noDeclaration(ev!.xml!)).toBe(noDeclaration(sample('responses/resEvento_v1.01_110110_sintetico.xml')));
    expect(ev!.summary).toMatchObject({ kind: 'resEvento', tpEvento: '110110', nSeqEvento: '1', xEvento: 'Carta de Correcao', nProt: '135260000123999' });
  });

  it('137 and 656 carry the NSUs and no document', () => {
    expect(parseDistributionAnswer(sample('responses/retDistDFeInt_137_sintetico.xml'), timing)).toMatchObject({
      kind: 'nothing', cStat: 137, ultNSU: '000000000000102', maxNSU: '000000000000102',
    });
    expect(parseDistributionAnswer(sample('responses/retDistDFeInt_656_sintetico.xml'), timing)).toMatchObject({ kind: 'throttled', cStat: 656 });
    expect(parseDistributionAnswer('<html>proxy</html>', timing).kind).toBe('unknown');
  });

  it('a zip bomb or a broken docZip becomes a problem at its NSU; the other documents are read', () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024)).toString('base64');
    const good = gzipSync('<resNFe xmlns="http://www.portalfiscal.inf.br/nfe" versao="1.01"><chNFe>1</chNFe></resNFe>').toString('base64');
    const answer =
      '<retDistDFeInt xmlns="http://www.portalfiscal.inf.br/nfe" versao="1.01"><tpAmb>2</tpAmb><verAplic>x</verAplic><cStat>138</cStat>' +
      '<xMotivo>Documento localizado</xMotivo><dhResp>2026-03-10T10:00:00-03:00</dhResp><ultNSU>000000000000003</ultNSU><maxNSU>000000000000009</maxNSU>' +
      `<loteDistDFeInt><docZip NSU="000000000000001" schema="procNFe_v4.00.xsd">${bomb}</docZip>` +
      `<docZip NSU="000000000000002" schema="resNFe_v1.01.xsd">bm90IGd6aXA=</docZip>` +
      `<docZip NSU="000000000000003" schema="procEventoNFe_v1.00.xsd">${good}</docZip></loteDistDFeInt></retDistDFeInt>`;
    const [a, b, c] = docs(parseDistributionAnswer(answer, timing, 1024 * 1024));
    expect(a).toMatchObject({ nsu: '000000000000001', xml: null, problem: expect.stringMatching(/larger than 1048576 bytes/) });
    expect(b).toMatchObject({ nsu: '000000000000002', xml: null, problem: expect.stringMatching(/not gzip/) });
    // Unreadable summary (a resNFe missing its fields): kept with its XML, summary refused.
    expect(c).toMatchObject({ nsu: '000000000000003', xml: expect.stringContaining('<chNFe>1</chNFe>'), summary: null, problem: expect.stringMatching(/missing/) });
  });
});

describe('distributed documents read into records', () => {
  it('a real nfeProc and a real procEventoNFe (CC-e, DF production)', () => {
    expect(summarizeDfe(sample('nfe/nfe_v4.00_RS_homologacao_autorizada.xml'))).toEqual({
      kind: 'procNFe', accessKey: '43180906929383000163550010000000261000010301', model: '55', issuer: { CNPJ: '06929383000163' },
      issuerName: 'UMA RAZAO SOCIAL DE TESTE QUALQUER', recipient: { CNPJ: '58716523000119' }, dhEmi: '2018-09-25T00:00:00-03:00',
      vNF: '500.00', nProt: expect.stringMatching(/^[0-9]{15}$/), cStat: 100,
    });
    expect(summarizeDfe(sample('events/procEventoNFe_110110_CCe_DF_producao.xml'))).toMatchObject({
      kind: 'procEventoNFe', accessKey: '53181011028793000173550010000066701204276800', tpEvento: '110110', nSeqEvento: '1',
      author: { CNPJ: '11028793000173' }, cStat: 135,
    });
    expect(summarizeDfe('<cteProc/>')).toBeNull();
    expect(() => summarizeDfe('<resEvento><chNFe>1</chNFe></resEvento>')).toThrow(/missing/);
  });
});

describe('consumption rule (NT 2014.002: 137 or ultNSU == maxNSU -> one hour)', () => {
  const at = new Date('2026-03-10T13:00:00Z');
  const hourLater = new Date(at.getTime() + DISTRIBUTION_WAIT_MS);
  it('asks at once while there is more, and always from the ultNSU received', () => {
    expect(nextDistribution(null)).toMatchObject({ ultNSU: '000000000000000', reason: 'first-call' });
    const next = nextDistribution({ cStat: 138, askedUltNSU: '0', ultNSU: '50', maxNSU: '120', at });
    expect(next).toMatchObject({ ultNSU: '000000000000050', reason: 'more-documents' });
    expect(distributionWaitMs(next, at)).toBe(0);
  });
  it('waits one hour after 137, after catching up and after 656, never moving backwards', () => {
    const nothing = nextDistribution({ cStat: 137, askedUltNSU: '120', ultNSU: '0', maxNSU: '0', at });
    expect(nothing).toMatchObject({ ultNSU: '000000000000120', notBefore: hourLater, reason: 'nothing-found' });
    expect(distributionWaitMs(nothing, new Date(at.getTime() + 59 * 60_000))).toBe(60_000);
    expect(distributionWaitMs(nothing, hourLater)).toBe(0);
    expect(nextDistribution({ cStat: 138, askedUltNSU: '50', ultNSU: '120', maxNSU: '120', at })).toMatchObject({
      ultNSU: '000000000000120', notBefore: hourLater, reason: 'caught-up',
    });
    expect(nextDistribution({ cStat: 656, askedUltNSU: '120', ultNSU: '0', maxNSU: '0', at })).toMatchObject({
      ultNSU: '000000000000120', notBefore: hourLater, reason: 'throttled',
    });
  });
});

describe('Ambiente Nacional endpoints', () => {
  it('resolves event reception and distribution for both environments, overridable', () => {
    expect(resolveNationalEndpoint(1, 'distribuicaoDFe')).toMatchObject({
      url: 'https://www1.nfe.fazenda.gov.br/NFeDistribuicaoDFe/NFeDistribuicaoDFe.asmx',
      action: 'http://www.portalfiscal.inf.br/nfe/wsdl/NFeDistribuicaoDFe/nfeDistDFeInteresse', version: '1.01', authorizer: 'AN',
    });
    expect(resolveNationalEndpoint(2, 'recepcaoEventoAN')).toMatchObject({
      url: 'https://hom1.nfe.fazenda.gov.br/NFeRecepcaoEvento4/NFeRecepcaoEvento4.asmx',
      namespace: 'http://www.portalfiscal.inf.br/nfe/wsdl/NFeRecepcaoEvento4', operation: 'nfeRecepcaoEvento',
    });
    expect(resolveNationalEndpoint(2, 'distribuicaoDFe', { baseUrl: 'https://127.0.0.1:9/' }).url).toBe('https://127.0.0.1:9/NFeDistribuicaoDFe');
  });
});
