import { describe, expect, it } from 'vitest';
import { buildPreparedNfe, prepareNfe } from '../src/documents/nfe/domain/index.js';
import type { NfeRequest } from '../src/documents/nfe/domain/nfe-request.js';
import { ALPHANUMERIC_ISSUER } from './support/nfce-fixtures.js';
import { interstateRequest, NFE_CONTEXT, nfeDocumentContext } from './support/nfe-fixtures.js';
import { xmllint, xmlsecVerify } from './support/xml-tools.js';

// One NF-e from request to signed XML, read the way a user reads it: the official XSD and xmlsec1
// accept it, the figures are the ones the request implies, and SVC contingency changes the key.

function prepared(req: NfeRequest = interstateRequest(), ctx = NFE_CONTEXT) {
  const p = prepareNfe(req, ctx);
  if (!p.ok) throw new Error(JSON.stringify(p.errors));
  return p.nfe;
}

describe('an interstate NF-e to a non-taxpayer (SP -> RJ, IPI, freight, DIFAL)', () => {
  const built = buildPreparedNfe(prepared(), nfeDocumentContext());

  it('is valid for the official XSD (PL_009 and PL_010) and its signature verifies', async () => {
    expect(built.schemaPackage).toBe('PL_009');
    expect(await xmllint(built.xml, 'PL_009_V4', 'nfe_v4.00.xsd')).toBe('');
    expect(await xmllint(built.xml, 'PL_010_V1.30', 'nfe_v4.00.xsd')).toBe('');
    expect(await xmlsecVerify(built.xml)).toBe('');
  });

  it('carries model 55 in its key and ide, derived idDest 2, and the homologation recipient name', () => {
    expect(built.accessKey).toMatch(/^3526071042272400018755001000001234140521937\d$/);
    expect(built.xml).toContain('<mod>55</mod><serie>1</serie><nNF>1234</nNF><dhEmi>2026-07-15T12:04:05-03:00</dhEmi><tpNF>1</tpNF><idDest>2</idDest>');
    expect(built.xml).toContain('<xNome>NF-E EMITIDA EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL</xNome>');
    expect(built.xml).toContain('<indFinal>1</indFinal><indPres>2</indPres><indIntermed>0</indIntermed>');
  });

  it('answers the totals in reais', () => {
    expect(built.totals).toMatchObject({ vProd: 3101, vFrete: 40, vIPI: 303.87, vICMSUFDest: 267.41, vFCPUFDest: 66.85, vNF: 3444.87, vNFTot: 3444.87 });
  });
});

describe('SVC contingency', () => {
  it('SP goes to SVC-AN (tpEmis 6) with dhCont and xJust; the key says so', async () => {
    const built = buildPreparedNfe(prepared(), nfeDocumentContext({ contingency: { at: new Date('2026-07-15T14:00:00Z'), reason: 'SEFAZ SP fora do ar desde as 11h' } }));
    expect(built.tpEmis).toBe(6);
    expect(built.accessKey[34]).toBe('6');
    expect(built.xml).toContain('<dhCont>2026-07-15T11:00:00-03:00</dhCont><xJust>SEFAZ SP fora do ar desde as 11h</xJust>');
    expect(await xmllint(built.xml, 'PL_009_V4', 'nfe_v4.00.xsd')).toBe('');
  });

  it('RS with an alphanumeric CNPJ goes to SVC-AN, PR to SVC-RS (tpEmis 7)', () => {
    const rs = prepared(interstateRequest(), { ...NFE_CONTEXT, issuer: { ...ALPHANUMERIC_ISSUER, crt: 3 } });
    expect(buildPreparedNfe(rs, nfeDocumentContext({ contingency: { at: new Date('2026-07-15T14:00:00Z'), reason: 'Sem comunicacao com a SEFAZ' } })).tpEmis).toBe(6);
    const pr = { ...rs, issuer: { ...rs.issuer, uf: 'PR', endereco: { ...rs.issuer.endereco, codigo_municipio: '4106902' } } };
    expect(buildPreparedNfe(pr, nfeDocumentContext({ contingency: { at: new Date('2026-07-15T14:00:00Z'), reason: 'Sem comunicacao com a SEFAZ' } })).tpEmis).toBe(7);
  });

  it('refuses a justification shorter than 15 characters (xJust)', () => {
    expect(() => buildPreparedNfe(prepared(), nfeDocumentContext({ contingency: { at: new Date('2026-07-15T14:00:00Z'), reason: 'caiu' } }))).toThrow(/15 to 256/);
  });
});
