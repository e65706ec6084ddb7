import { describe, expect, it } from 'vitest';
import { accessKeyCheckDigit } from '../src/fiscal/layout/access-key.js';
import type { NfeModel } from '../src/fiscal/xml/nfe/model-55.js';
import { signNfe } from '../src/fiscal/xml/nfe/sign-nfe.js';
import { testSigningKey } from './support/nfce-fixtures.js';
import { xmllint, xmlsecVerify } from './support/xml-tools.js';

// A hand-built model 55 note with every group the NF-e adds (NFref, dest with IE, autXML, IPI,
// ICMSUFDest, DIFAL totals, transp with carrier/vehicle/volumes, cobr, infAdFisco) written by the
// shared 4.00 writer, checked by xmllint with the official XSDs and by xmlsec1.

const BODY = '35260710422724000187550010000012341405219370'.slice(0, 43);
const KEY = BODY + accessKeyCheckDigit(BODY);

function model(): NfeModel {
  const icms = { code: '00', orig: 0, own: { modBC: 3, vBC: 100_00, pICMS: 120_000, vICMS: 12_00 } };
  return {
    accessKey: KEY,
    ide: {
      cUF: '35', cNF: '40521937', natOp: 'VENDA DE MERCADORIA', mod: 55, serie: 1, nNF: 1234, dhEmi: '2026-07-15T12:04:05-03:00', tpNF: 1, idDest: 2,
      cMunFG: '3550308', tpImp: 1, tpEmis: 1, cDV: Number(KEY[43]), tpAmb: 2, finNFe: 4, indFinal: 1, indPres: 2, indIntermed: 0, verProc: 'test',
      NFref: ['35260610422724000187550010000011111000000011'],
    },
    emit: { CNPJ: '10422724000187', xNome: 'Industria', ender: { xLgr: 'Rua', nro: '1', xBairro: 'Centro', cMun: '3550308', xMun: 'Sao Paulo', UF: 'SP', CEP: '01001000' }, IE: '111222333444', CRT: 3 },
    dest: { CPF: '52998224725', xNome: 'NF-E EMITIDA EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL', ender: { xLgr: 'Rua B', nro: '2', xBairro: 'Centro', cMun: '3304557', xMun: 'Rio de Janeiro', UF: 'RJ' }, indIEDest: 9, email: 'a@b.com' },
    autXML: [{ CNPJ: '10422724000187' }, { CPF: '52998224725' }],
    det: [{
      nItem: 1, cProd: '1', cEAN: 'SEM GTIN', xProd: 'NOTA FISCAL EMITIDA EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL', NCM: '84713012', CFOP: '6202', uCom: 'UN',
      qCom: 10_000n, vUnCom: 1_000_000_000_000n, vProd: 100_00, vFrete: 10_00, vDesc: 0, vOutro: 1_00, icms,
      ipi: { cEnq: '999', CST: '50', trib: { vBC: 100_00, pIPI: 50_000, vIPI: 5_00 } },
      pis: { CST: '01', vBC: 100_00, rate: 6_500, value: 65 }, cofins: { CST: '01', vBC: 100_00, rate: 30_000, value: 3_00 },
      icmsUfDest: { vBCUFDest: 100_00, fcp: { vBCFCPUFDest: 100_00, pFCPUFDest: 20_000, vFCPUFDest: 2_00 }, pICMSUFDest: 200_000, pICMSInter: 120_000, pICMSInterPart: 1_000_000, vICMSUFDest: 8_00, vICMSUFRemet: 0 },
    }],
    total: {
      vBC: 100_00, vICMS: 12_00, vICMSDeson: 0, vFCPUFDest: 2_00, vICMSUFDest: 8_00, vICMSUFRemet: 0, vFCP: 0, vBCST: 0, vST: 0, vFCPST: 0, vFCPSTRet: 0,
      vProd: 100_00, vFrete: 10_00, vSeg: 0, vDesc: 0, vII: 0, vIPI: 5_00, vIPIDevol: 0, vPIS: 65, vCOFINS: 3_00, vOutro: 1_00, vNF: 116_00, vTotTrib: 0,
    },
    transp: {
      modFrete: 0, transporta: { CNPJ: '10422724000187', xNome: 'Transportes', IE: '111222333444', xEnder: 'Rua C', xMun: 'Sao Paulo', UF: 'SP' },
      veicTransp: { placa: 'ABC1D23', UF: 'SP' }, vol: [{ qVol: 2, esp: 'CAIXA', pesoL: 10_500, pesoB: 11_000 }],
    },
    cobr: { fat: { nFat: '1234', vOrig: 116_00, vDesc: 0, vLiq: 116_00 }, dup: [{ nDup: '001', dVenc: '2026-08-15', vDup: 58_00 }, { nDup: '002', dVenc: '2026-09-15', vDup: 58_00 }] },
    pag: { detPag: [{ tPag: '15', vPag: 116_00 }], vTroco: 0 },
    infAdic: { infAdFisco: 'DIFAL recolhido', infCpl: 'Pedido 77' },
  };
}

describe('signNfe (model 55 on the shared 4.00 writer)', () => {
  const signed = signNfe(model(), testSigningKey());

  it('writes NFe = infNFe + Signature, mod 55, no infNFeSupl', () => {
    expect(signed.xml).toMatch(/^<NFe xmlns="http:\/\/www.portalfiscal.inf.br\/nfe"><infNFe Id="NFe[0-9]{44}" versao="4.00"><ide>/);
    expect(signed.xml).not.toContain('infNFeSupl');
    expect(signed.xml).toContain('<mod>55</mod>');
    expect(signed.xml).toContain('<tpImp>1</tpImp>');
    expect(signed.xml).toContain('</infNFe><Signature xmlns="http://www.w3.org/2000/09/xmldsig#">');
    expect(signed.xml).toContain('<NFref><refNFe>35260610422724000187550010000011111000000011</refNFe></NFref>');
    expect(signed.xml).toContain('<pICMSInter>12.00</pICMSInter>');
  });

  it('passes xmllint with PL_009 and PL_010 nfe_v4.00.xsd', async () => {
    expect(await xmllint(signed.xml, 'PL_009_V4', 'nfe_v4.00.xsd')).toBe('');
    expect(await xmllint(signed.xml, 'PL_010_V1.30', 'nfe_v4.00.xsd')).toBe('');
  });

  it('passes xmlsec1 --verify', async () => {
    expect(await xmlsecVerify(signed.xml)).toBe('');
  });

  it('a foreign recipient (idEstrangeiro, country) and CST 51 deferral also validate', async () => {
    const m = model();
    m.ide.idDest = 3;
    m.dest = { idEstrangeiro: 'AB12345', xNome: 'Buyer Inc', ender: { xLgr: 'Main St', nro: '9', xBairro: 'Downtown', cMun: '9999999', xMun: 'EXTERIOR', UF: 'EX', cPais: '2496', xPais: 'ESTADOS UNIDOS' }, indIEDest: 9 };
    m.det[0]!.icms = { code: '51', orig: 0, own: { modBC: 3, vBC: 100_00, pICMS: 120_000, vICMS: 0 }, deferral: { vICMSOp: 12_00, pDif: 1_000_000, vICMSDif: 12_00 } };
    delete m.det[0]!.icmsUfDest;
    const xml = signNfe(m, testSigningKey()).xml;
    expect(xml).toContain('<idEstrangeiro>AB12345</idEstrangeiro>');
    expect(await xmllint(xml, 'PL_009_V4', 'nfe_v4.00.xsd')).toBe('');
  });
});
