import { describe, expect, it } from 'vitest';
import type { NfceModel } from '../src/fiscal/xml/nfe/model.js';
import { signNfce } from '../src/fiscal/xml/nfe/sign-nfe.js';
import { TEST_CSC, testIssuer } from './support/authority-fixtures.js';
import { xmllint, xmlsecVerify } from './support/xml-tools.js';

// docs/fiscal/medicines.md: prod/rastro (0..500, after indTot/nFCI) and prod/med (the closing choice of prod),
// leiauteNFe_v4.00.xsd of PL_009_V4 and PL_010. Hand figures: 2 boxes x R$ 12.50 = R$ 25.00 (vProd); PMC R$ 14.90.
const KEY = '35260710422724000187650010000012341405219370';

function pharmacySale(det: Partial<NfceModel['det'][number]>): NfceModel {
  const icms = { code: '40', orig: 0 };
  return {
    accessKey: KEY,
    ide: { cUF: '35', cNF: '40521937', natOp: 'VENDA', serie: 1, nNF: 1234, dhEmi: '2026-07-15T12:04:05-03:00', cMunFG: '3550308', tpEmis: 1, cDV: 0, tpAmb: 2, indPres: 1, verProc: 'test' },
    emit: { CNPJ: '10422724000187', xNome: 'Farmacia', ender: { xLgr: 'Rua', nro: '1', xBairro: 'Centro', cMun: '3550308', xMun: 'Sao Paulo', UF: 'SP', CEP: '01001000' }, IE: '111222333444', CRT: 3 },
    det: [{ nItem: 1, cProd: '1', cEAN: 'SEM GTIN', xProd: 'Dipirona 500mg 10 comp', NCM: '30049099', CFOP: '5102', uCom: 'CX', qCom: 20_000n, vUnCom: 125_000_000_000n, vProd: 2500, vDesc: 0, icms, pis: { CST: '07' }, cofins: { CST: '07' }, ...det }],
    total: { vBC: 0, vICMS: 0, vICMSDeson: 0, vFCP: 0, vBCST: 0, vST: 0, vFCPST: 0, vFCPSTRet: 0, vProd: 2500, vFrete: 0, vSeg: 0, vDesc: 0, vII: 0, vIPI: 0, vIPIDevol: 0, vPIS: 0, vCOFINS: 0, vOutro: 0, vNF: 2500, vTotTrib: 0 },
    pag: { detPag: [{ tPag: '01', vPag: 2500 }], vTroco: 0 },
  };
}

const key = testIssuer().signingKey;

describe('prod/rastro and prod/med writers', () => {
  it('two batches and a registered medicine: rastro after indTot, med closing prod; XSD of PL_009_V4 and PL_010_V1.40, signature', async () => {
    const m = pharmacySale({
      rastro: [
        { nLote: 'L2301A', qLote: '1', dFab: '2025-01-10', dVal: '2027-01-31' },
        { nLote: 'L2302B', qLote: '1', dFab: '2025-02-10', dVal: '2027-02-28', cAgreg: '7891234567890' },
      ],
      med: { cProdANVISA: '1012345670012', vPMC: 1490 },
    });
    const xml = signNfce(m, key, TEST_CSC).xml;
    expect(xml).toContain(
      '<indTot>1</indTot><rastro><nLote>L2301A</nLote><qLote>1</qLote><dFab>2025-01-10</dFab><dVal>2027-01-31</dVal></rastro>' +
        '<rastro><nLote>L2302B</nLote><qLote>1</qLote><dFab>2025-02-10</dFab><dVal>2027-02-28</dVal><cAgreg>7891234567890</cAgreg></rastro>' +
        '<med><cProdANVISA>1012345670012</cProdANVISA><vPMC>14.90</vPMC></med></prod>',
    );
    expect(await xmllint(xml, 'PL_009_V4', 'nfe_v4.00.xsd')).toBe('');
    expect(await xmllint(xml, 'PL_010_V1.40', 'nfe_v4.00.xsd')).toBe('');
    expect(await xmlsecVerify(xml)).toBe('');
  });

  it('an exempt medicine writes ISENTO with xMotivoIsencao; the XSD refuses a malformed cProdANVISA and a 21-char batch', async () => {
    const exempt = signNfce(pharmacySale({ med: { cProdANVISA: 'ISENTO', xMotivoIsencao: 'Resolucao de isencao (teste)', vPMC: 1490 } }), key, TEST_CSC).xml;
    expect(exempt).toContain('<med><cProdANVISA>ISENTO</cProdANVISA><xMotivoIsencao>Resolucao de isencao (teste)</xMotivoIsencao><vPMC>14.90</vPMC></med>');
    expect(await xmllint(exempt, 'PL_010_V1.40', 'nfe_v4.00.xsd')).toBe('');
    const badCode = signNfce(pharmacySale({ med: { cProdANVISA: '123', vPMC: 1490 } }), key, TEST_CSC).xml;
    expect(await xmllint(badCode, 'PL_010_V1.40', 'nfe_v4.00.xsd')).toContain('cProdANVISA');
    const longLot = signNfce(pharmacySale({ rastro: [{ nLote: 'X'.repeat(21), qLote: '2', dFab: '2025-01-10', dVal: '2027-01-31' }] }), key, TEST_CSC).xml;
    expect(await xmllint(longLot, 'PL_010_V1.40', 'nfe_v4.00.xsd')).toContain('nLote');
  });
});
