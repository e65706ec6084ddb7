import { describe, expect, it } from 'vitest';
import type { X509Certificate } from 'node:crypto';
import { contentRejection } from '../src/authority-sim/nfe-rules.js';
import { model55Rejection } from '../src/authority-sim/nfe55-rules.js';
import { buildNfce } from '../src/documents/nfce/domain/build-nfce.js';
import { nfeFacts } from '../src/authority-sim/nfe-facts.js';
import { computeNfe } from '../src/documents/nfe/domain/compute-nfe.js';
import { buildPreparedNfe, prepareNfe } from '../src/documents/nfe/domain/index.js';
import type { NfeRequest } from '../src/documents/nfe/domain/nfe-request.js';
import { NUMERIC_ISSUER, simpleSale, testContext } from './support/nfce-fixtures.js';
import { interstateRequest, NFE_CONTEXT, nfeDocumentContext } from './support/nfe-fixtures.js';
import { nfeTotalsProblems } from './support/nfe-checks.js';
import { xmllint, xmlsecVerify } from './support/xml-tools.js';

// ICMSPart (icms_partilha, MOC N10a) and ICMSST (st_repasse, MOC N10b) from a request to a signed
// model 55 note: the group's fields in XSD order, the totals (W03-W06b), xmllint with the official
// PL_009 and PL_010 nfe_v4.00.xsd, xmlsec1 and the simulator's model 55 rules.

/** SP -> MG vehicle sale to a final consumer through a dealer (Convenio ICMS 51/00): ICMSPart, no DIFAL. */
function partilhaRequest(): NfeRequest {
  const req = interstateRequest();
  req.destinatario.address = { street: 'Av. Central', number: '10', district: 'Centro', city_code: '3106200', city: 'Belo Horizonte', uf: 'MG', cep: '30110000' };
  // IE-exempt: to a non-taxpayer, CST 10/90 needs the new vehicle's group (veicProd, not written; MOC N12-70 exception 3, 508).
  req.destinatario.indicador_ie = 'isento';
  req.consumidor_final = true;
  req.items = [
    {
      description: 'Automovel 1.0 flex', quantity: 1, unit_price: 80_000, ncm: '87032100', cfop: '6403', unit: 'UN', cst_icms: '10', pICMS: 12, vBC: 36_064,
      cest: '0103900', st: { rate: 12, modality: 0, base: 43_936, fcp_rate: 2 }, icms_partilha: { operation_base_share: 45.08, uf_st: 'MG' },
    },
    { description: 'Kit tapetes', quantity: 1, unit_price: 300, ncm: '40169990', cfop: '6102', unit: 'UN', cst_icms: '90', pICMS: 12, icms_base_reduction: 10, st: { rate: 18, mva: 40 }, icms_partilha: { operation_base_share: 100, uf_st: 'MG' } },
  ];
  delete req.freight;
  return req;
}

/** SP -> PR sale to a retailer of goods whose ST was retained earlier in SP: ICMSST (CST 60 and 41). */
function repasseRequest(): NfeRequest {
  const req = interstateRequest();
  req.destinatario = {
    cnpj: '11222333000181', name: 'Mercado Boa Compra Ltda', indicador_ie: 'contribuinte', ie: '1234567850',
    address: { street: 'Rua A', number: '1', district: 'Centro', city_code: '4106902', city: 'Curitiba', uf: 'PR', cep: '80010000' },
  };
  req.presenca = 'nao_se_aplica';
  req.items = [
    {
      description: 'Pneu 175/70 R13', quantity: 4, unit_price: 250, ncm: '40111000', cfop: '6404', unit: 'UN', cst_icms: '60', cest: '1600100',
      st_retained: { base: 1_400, rate: 18, amount: 72, substitute_amount: 120 }, st_repasse: { destination_base: 1_450, destination_amount: 81, retained_fcp: { base: 1_400, rate: 2, amount: 28 } },
    },
    { description: 'Camara de ar', quantity: 2, unit_price: 40, ncm: '40131090', cfop: '6404', unit: 'UN', cst_icms: '41', st_retained: { base: 100, rate: 18, amount: 6 }, st_repasse: { destination_base: 110, destination_amount: 7.5 } },
  ];
  delete req.freight;
  return req;
}

function build(req: NfeRequest, destUf: string) {
  const { vNF } = computeNfe(req, { crt: 3, issuerUf: 'SP', destUf, finalConsumer: req.consumidor_final ?? req.destinatario.indicador_ie === 'nao_contribuinte' }).total;
  req.payment = { method: 'boleto', amount: vNF / 100 };
  const prepared = prepareNfe(req, NFE_CONTEXT);
  if (!prepared.ok) throw new Error(JSON.stringify(prepared.errors));
  return buildPreparedNfe(prepared.nfe, nfeDocumentContext());
}

const group = (xml: string, name: string, n: number) => xml.split('<det ')[n]!.match(new RegExp(`<${name}>(.*?)</${name}>`))?.[1] ?? '';

describe('ICMSPart and ICMSST in an NF-e', () => {
  it('writes ICMSPart (CST 10 and 90) in XSD order, adds its ICMS and ST to the totals, and no DIFAL', async () => {
    const built = build(partilhaRequest(), 'MG');
    const xml = built.xml;
    expect(group(xml, 'ICMSPart', 1)).toBe(
      '<orig>0</orig><CST>10</CST><modBC>3</modBC><vBC>36064.00</vBC><pICMS>12.00</pICMS><vICMS>4327.68</vICMS>' +
        '<modBCST>0</modBCST><vBCST>43936.00</vBCST><pICMSST>12.00</pICMSST><vICMSST>944.64</vICMSST>' +
        '<vBCFCPST>43936.00</vBCFCPST><pFCPST>2.00</pFCPST><vFCPST>878.72</vFCPST><pBCOp>45.08</pBCOp><UFST>MG</UFST>',
    );
    expect(group(xml, 'ICMSPart', 2)).toMatch(/^<orig>0<\/orig><CST>90<\/CST><modBC>3<\/modBC><vBC>270.00<\/vBC><pRedBC>10.00<\/pRedBC><pICMS>12.00<\/pICMS><vICMS>32.40<\/vICMS><modBCST>4<\/modBCST><pMVAST>40.00<\/pMVAST>.*<pBCOp>100.00<\/pBCOp><UFST>MG<\/UFST>$/);
    expect(xml).not.toContain('<ICMSUFDest>');
    expect(xml).toContain('<vBC>36334.00</vBC><vICMS>4360.08</vICMS>');
    expect(nfeTotalsProblems(xml)).toEqual([]);
    expect(model55Rejection(nfeFacts(xml))).toBeNull();
    expect(built.schemaPackage).toBe('PL_009');
    expect(await xmllint(xml, 'PL_009_V4', 'nfe_v4.00.xsd')).toBe('');
    expect(await xmllint(xml, 'PL_010_V1.30', 'nfe_v4.00.xsd')).toBe('');
    expect(await xmlsecVerify(xml)).toBe('');
  });

  it('writes ICMSST (CST 60 and 41) in XSD order; only its vFCPSTRet reaches the totals (W06b-10)', async () => {
    const xml = build(repasseRequest(), 'PR').xml;
    expect(group(xml, 'ICMSST', 1)).toBe(
      '<orig>0</orig><CST>60</CST><vBCSTRet>1400.00</vBCSTRet><pST>18.00</pST><vICMSSubstituto>120.00</vICMSSubstituto><vICMSSTRet>72.00</vICMSSTRet>' +
        '<vBCFCPSTRet>1400.00</vBCFCPSTRet><pFCPSTRet>2.00</pFCPSTRet><vFCPSTRet>28.00</vFCPSTRet><vBCSTDest>1450.00</vBCSTDest><vICMSSTDest>81.00</vICMSSTDest>',
    );
    expect(group(xml, 'ICMSST', 2)).toBe('<orig>0</orig><CST>41</CST><vBCSTRet>100.00</vBCSTRet><pST>18.00</pST><vICMSSTRet>6.00</vICMSSTRet><vBCSTDest>110.00</vBCSTDest><vICMSSTDest>7.50</vICMSSTDest>');
    expect(xml).toContain('<vBC>0.00</vBC><vICMS>0.00</vICMS>');
    expect(xml).toContain('<vBCST>0.00</vBCST><vST>0.00</vST><vFCPST>0.00</vFCPST><vFCPSTRet>28.00</vFCPSTRet>');
    expect(nfeTotalsProblems(xml)).toEqual([]);
    expect(model55Rejection(nfeFacts(xml))).toBeNull();
    expect(await xmllint(xml, 'PL_009_V4', 'nfe_v4.00.xsd')).toBe('');
    expect(await xmllint(xml, 'PL_010_V1.30', 'nfe_v4.00.xsd')).toBe('');
    expect(await xmlsecVerify(xml)).toBe('');
  });
});

describe('the simulator refuses both groups in an NFC-e', () => {
  // The gateway cannot write them in an NFC-e (the NFC-e request has no such fields): the groups are pasted in.
  const nfce = buildNfce(simpleSale(), testContext(NUMERIC_ISSUER)).xml;
  const ctx = { now: new Date(), signer: {} as X509Certificate, digestValue: '', cscs: new Map() };
  const withGroup = (group: string) => nfce.replace(/<ICMS><ICMS[^>]*>.*?<\/ICMS>/, `<ICMS>${group}</ICMS>`);

  it('ICMSPart: 741 (MOC N12-50); ICMSST: 740 with the item (MOC N12-60)', () => {
    expect(nfce).toMatch(/<ICMS><ICMS[0-9SN]+>/);
    const part = '<ICMSPart><orig>0</orig><CST>10</CST><modBC>3</modBC><vBC>1.00</vBC><pICMS>12.00</pICMS><vICMS>0.12</vICMS><modBCST>4</modBCST><vBCST>1.00</vBCST><pICMSST>18.00</pICMSST><vICMSST>0.06</vICMSST><pBCOp>100.00</pBCOp><UFST>SP</UFST></ICMSPart>';
    const st = '<ICMSST><orig>0</orig><CST>60</CST><vBCSTRet>1.00</vBCSTRet><vICMSSTRet>0.18</vICMSSTRet><vBCSTDest>1.00</vBCSTDest><vICMSSTDest>0.18</vICMSSTDest></ICMSST>';
    expect(contentRejection(nfeFacts(withGroup(part)), ctx)?.cStat).toBe(741);
    const rejection = contentRejection(nfeFacts(withGroup(st)), ctx);
    expect(rejection?.cStat).toBe(740);
    expect(rejection?.xMotivo).toBe('Rejeição: Item com Repasse de ICMS retido por Substituto Tributário [nItem: 1]');
    expect([740, 741]).not.toContain(contentRejection(nfeFacts(nfce), ctx)?.cStat);
  });
});
