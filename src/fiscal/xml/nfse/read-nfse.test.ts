import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../kernel/paths.js';
import { NFSE_XML_MAX_BYTES, NfseReadError, readNfse } from './read-nfse.js';

const fixture = (p: string) => readFileSync(join(PROJECT_ROOT, 'test/fixtures', p), 'utf8');
const RJ = fixture('samples/nfse/nfse_v1.01_RJ_producaorestrita_autorizada_assinada.xml');
// The RJ sample edited (schema-valid, signature no longer valid): taker with CPF, intermediary,
// ISSQN withheld by the taker, PIS/COFINS/CP/IRRF/CSLL withheld, discounts, a deduction, no IBS/CBS.
const EDITED = fixture('nfse/nfse_v1.01_editada_tomador_cpf_intermediario_retencoes.xml');

describe('readNfse on the real restricted-production NFS-e (Rio de Janeiro)', () => {
  const v = readNfse(RJ);

  it('reads the identification Sefin gave it', () => {
    expect(v).toMatchObject({
      accessKey: '33045572211905971000105000000000014625124504258429',
      nNFSe: '146',
      nDFSe: '60631',
      cStat: '100',
      dhProc: '2025-12-30T19:01:35-03:00',
      ambGer: '2',
      tpAmb: 2,
      xLocEmi: 'Rio de Janeiro',
      xLocPrestacao: 'Rio de Janeiro',
      cLocIncid: '3304557',
      xLocIncid: 'Rio de Janeiro',
      xTribNac: 'Análise e desenvolvimento de sistemas.',
      xTribMun: 'Análise de sistemas.',
      verAplic: 'SefinNac_Pre_1.4.0',
    });
    expect(v.xNBS).toMatch(/^Serviços de projeto, desenvolvimento e instalação de aplicativos/);
  });

  it('reads the issuer as Sefin completed it', () => {
    expect(v.emit).toEqual({
      id: { CNPJ: '11905971000105' },
      xNome: 'GUIDI SISTEMAS E SERVICOS EM TECNOLOGIA DA INFORMACAO LTDA',
      enderNac: { xLgr: 'GUANDU DO SAPE', nro: '01450', xBairro: 'CAMPO GRANDE', cMun: '3304557', UF: 'RJ', CEP: '23095072' },
      fone: '2135933387',
      email: 'VANDERSON@GUIDISISTEMAS.COM.BR',
    });
  });

  it('reads the DPS part: identification, parties (entities decoded) and service', () => {
    expect(v.dps).toMatchObject({
      Id: 'DPS330455721190597100010500333000000000000006',
      tpAmb: 2,
      dhEmi: '2025-12-30T19:00:06-03:00',
      serie: '333',
      nDPS: '6',
      dCompet: '2025-12-30',
      cLocEmi: '3304557',
      prest: { id: { CNPJ: '11905971000105' }, regTrib: { opSimpNac: '3', regApTribSN: '3', regEspTrib: '0' } },
      toma: { id: { CNPJ: '39847728000199' }, xNome: 'MXM & JETTAX', end: { endNac: { cMun: '3303302', CEP: '24020077' }, xLgr: 'AV RIO BRANCO', nro: '123', xBairro: 'CENTRO' } },
      serv: { cLocPrestacao: '3304557', cTribNac: '010101', cTribMun: '001', cNBS: '115021000', xDescServ: 'Analise e desenvolvimento de sistemas (MXM)' },
    });
    expect(v.dps.interm).toBeUndefined();
  });

  it('reads the values in cents and rates in hundredths', () => {
    expect(v.values).toMatchObject({
      vServ: 1_000_000,
      vDescIncond: 0,
      vDescCond: 0,
      vBC: 1_000_000,
      pAliqAplic: 500,
      vISSQN: 50_000,
      tribISSQN: '1',
      tpRetISSQN: '1',
      vRetCP: 0,
      vRetIRRF: 15_000,
      vRetCSLL: 46_500,
      vTotalRet: 61_500,
      vLiq: 938_500,
      pisCofins: { CST: '01', vBCPisCofins: 1_000_000, pAliqPis: 0, pAliqCofins: 760, vPis: 0, vCofins: 76_000, tpRetPisCofins: '2' },
      totTrib: { vTotTribFed: 76_000, vTotTribEst: 0, vTotTribMun: 50_000 },
    });
  });

  it('reads the IBS/CBS totals', () => {
    expect(v.ibsCbs).toEqual({
      cLocalidadeIncid: '3303302',
      xLocalidadeIncid: 'Niterói',
      vBC: 874_000,
      pIBSUF: 10,
      pAliqEfetUF: 10,
      pIBSMun: 0,
      pAliqEfetMun: 0,
      pCBS: 90,
      pAliqEfetCBS: 90,
      vTotNF: 938_500,
      vIBSTot: 874,
      vIBSUF: 874,
      vIBSMun: 0,
      vCBS: 7_866,
      CST: '000',
      cClassTrib: '000001',
    });
  });
});

describe('readNfse on a note with a CPF taker, an intermediary and withholdings', () => {
  const v = readNfse(EDITED);

  it('reads the taker by CPF and the intermediary with name, address and e-mail', () => {
    expect(v.tpAmb).toBe(1);
    expect(v.dps.toma).toMatchObject({ id: { CPF: '52998224725' }, xNome: 'MARIA JOSÉ DA SILVA', end: { xCpl: 'APTO 12' } });
    expect(v.dps.interm).toEqual({
      id: { CNPJ: '45997418000153' },
      xNome: 'AGÊNCIA INTERMEDIADORA DE SERVIÇOS LTDA',
      end: { endNac: { cMun: '3106200', CEP: '30130010' }, xLgr: 'RUA DA BAHIA', nro: '900', xBairro: 'CENTRO' },
      fone: '3132221100',
      email: 'contato@intermediadora.example.com.br',
    });
    expect(v.dps.serv.xInfComp).toBe('Contrato 2026/015 - parcela 3 de 12');
    expect(v.xOutInf).toBe('NFS-e gerada com retencao do ISSQN pelo tomador');
  });

  it('reads discounts, the deduction and every withholding; no IBS/CBS group', () => {
    expect(v.values).toMatchObject({ vDescIncond: 20_000, vDescCond: 10_000, vDR: 30_000, tpRetISSQN: '2', vISSQN: 47_500, vRetCP: 11_000, vTotalRet: 119_500, vLiq: 850_500 });
    expect(v.values.pisCofins).toMatchObject({ vPis: 6_500, vCofins: 30_000, tpRetPisCofins: '1' });
    expect(v.ibsCbs).toBeUndefined();
  });
});

describe('readNfse on a foreign taker', () => {
  it('reads the NIF and the foreign address (endExt)', () => {
    const xml = RJ.replace(/<toma>.*?<\/toma>/, '<toma><NIF>DE811907980</NIF><xNome>KUNDE GMBH</xNome><end><endExt><cPais>DE</cPais><cEndPost>10115</cEndPost><xCidade>Berlin</xCidade><xEstProvReg>Berlin</xEstProvReg></endExt><xLgr>Invalidenstrasse</xLgr><nro>10</nro><xBairro>Mitte</xBairro></end></toma>');
    expect(readNfse(xml).dps.toma).toEqual({
      id: { NIF: 'DE811907980' },
      xNome: 'KUNDE GMBH',
      end: { endExt: { cPais: 'DE', cEndPost: '10115', xCidade: 'Berlin', xEstProvReg: 'Berlin' }, xLgr: 'Invalidenstrasse', nro: '10', xBairro: 'Mitte' },
    });
  });
});

describe('readNfse refuses what is not an authorized NFS-e', () => {
  const dps = fixture('samples/nfse/dps_v1.01_RJ_producaorestrita_assinada_extraida_da_nfse.xml');
  it.each([
    ['a DPS', dps, /not an NFS-e: no NFSe\/infNFSe element \(root: DPS\)/],
    ['an event request', fixture('samples/nfse/pedRegEvento_e101101_handmade_unsigned.xml'), /not an NFS-e/],
    ['text that is not XML', 'hello', /not an NFS-e/],
    ['a key with a wrong check digit', RJ.replace('04258429"', '04258420"'), /not "NFS" \+ a valid access key/],
    ['a missing mandatory element', RJ.replace('<vLiq>9385.00</vLiq>', ''), /NFSe\/infNFSe\/valores\/vLiq is missing/],
    ['an amount with three decimals', RJ.replace('<vServ>10000.00</vServ>', '<vServ>10000.005</vServ>'), /vServPrest\/vServ is not a decimal with at most two places/],
    ['a DPS without tpAmb 1 or 2', RJ.replace('<tpAmb>2</tpAmb>', '<tpAmb>3</tpAmb>'), /tpAmb must be 1 or 2/],
  ])('%s', (_name, xml, message) => {
    expect(() => readNfse(xml)).toThrow(NfseReadError);
    expect(() => readNfse(xml)).toThrow(message);
  });

  it('refuses a document beyond the size bound before parsing it', () => {
    const big = RJ.replace('</NFSe>', `<!--${'x'.repeat(NFSE_XML_MAX_BYTES)}--></NFSe>`);
    expect(() => readNfse(big)).toThrow(/more than 1048576 bytes/);
  });
});
