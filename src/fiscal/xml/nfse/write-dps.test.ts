import { describe, expect, it } from 'vitest';
import { RJ_DPS_FILE, RJ_DPS_MODEL, readNfseSample } from '../../../../test/support/nfse-samples.js';
import { xmllint } from '../../../../test/support/xml-tools.js';
import { validateXml } from '../xsd/validate-xml.js';
import { infDpsTexts, writeDps } from './write-dps.js';

describe('writeDps', () => {
  it('reproduces the infDPS of the real restricted-production DPS byte for byte', () => {
    const sample = readNfseSample(RJ_DPS_FILE);
    const expected = /<infDPS .*<\/infDPS>/.exec(sample)![0];
    const texts = infDpsTexts(RJ_DPS_MODEL);
    expect(texts.id).toBe('DPS330455721190597100010500333000000000000006');
    expect(texts.embedded).toBe(expected);
    expect(texts.canonical).toBe(expected.replace('<infDPS ', '<infDPS xmlns="http://www.sped.fazenda.gov.br/nfse" '));
  });

  it('writes a DPS that the national XSD accepts (house validator and xmllint)', async () => {
    const xml = writeDps(RJ_DPS_MODEL);
    expect(xml.startsWith('<DPS xmlns="http://www.sped.fazenda.gov.br/nfse" versao="1.01"><infDPS Id="DPS3304557')).toBe(true);
    expect(xml).not.toMatch(/>\s+</);
    expect(validateXml(xml, { pkg: 'NFSe_v1.01', file: 'DPS_v1.01.xsd' })).toEqual({ valid: true, errors: [] });
    expect(await xmllint(xml, 'NFSe_v1.01', 'DPS_v1.01.xsd')).toBe('');
  });

  it('writes the optional groups in XSD order', async () => {
    const xml = writeDps({
      ...RJ_DPS_MODEL,
      prest: { ...RJ_DPS_MODEL.prest, id: { CPF: '12345678909' }, IM: '1234' },
      toma: { id: { NIF: 'PT123456789' }, xNome: 'Cliente Lda', end: { place: { endExt: { cPais: 'PT', cEndPost: '1000-001', xCidade: 'Lisboa', xEstProvReg: 'Lisboa' } }, xLgr: 'Rua A', nro: '1', xCpl: 'Esq', xBairro: 'Centro' } },
      interm: { id: { CNPJ: '11222333000181' }, xNome: 'Intermediario' },
      valores: {
        vReceb: 100_000, vServ: 100_000, vDescIncond: 1_000, vDescCond: 500, dedRed: { vDR: 2_000 },
        tribMun: { tribISSQN: 1, tpRetISSQN: 2, pAliq: 500 },
        tribFed: { piscofins: { CST: '01' }, vRetCP: 1_100, vRetIRRF: 1_500, vRetCSLL: 1_000 },
        totTrib: { indTotTrib: 0 },
      },
    });
    expect(xml).toContain('<infDPS Id="DPS330455710001234567890900333000000000000006">');
    expect(xml).toContain('<prest><CPF>12345678909</CPF><IM>1234</IM>');
    expect(xml).toContain('<toma><NIF>PT123456789</NIF><xNome>Cliente Lda</xNome><end><endExt>');
    expect(xml).toContain('</toma><interm><CNPJ>11222333000181</CNPJ><xNome>Intermediario</xNome></interm><serv>');
    expect(xml).toContain('<tribMun><tribISSQN>1</tribISSQN><tpRetISSQN>2</tpRetISSQN><pAliq>5.00</pAliq></tribMun>');
    expect(validateXml(xml, { pkg: 'NFSe_v1.01', file: 'DPS_v1.01.xsd' })).toEqual({ valid: true, errors: [] });
  });

  it('writes subst after cLocEmi and infoCompl at the end of serv', () => {
    const chSubstda = '33045572211905971000105000000000014625124504258429';
    const xml = writeDps({
      ...RJ_DPS_MODEL,
      subst: { chSubstda, cMotivo: '99', xMotivo: 'Valor do serviço informado errado' },
      serv: { ...RJ_DPS_MODEL.serv, infoCompl: { docRef: 'Contrato 12', xInfComp: 'Pagamento & prazo' } },
    });
    expect(xml).toContain(`<cLocEmi>3304557</cLocEmi><subst><chSubstda>${chSubstda}</chSubstda><cMotivo>99</cMotivo><xMotivo>Valor do serviço informado errado</xMotivo></subst><prest>`);
    expect(xml).toContain('</cServ><infoCompl><docRef>Contrato 12</docRef><xInfComp>Pagamento &amp; prazo</xInfComp></infoCompl></serv>');
    expect(validateXml(xml, { pkg: 'NFSe_v1.01', file: 'DPS_v1.01.xsd' })).toEqual({ valid: true, errors: [] });
  });

  it('refuses a provider without CNPJ or CPF (no DPS Id)', () => {
    expect(() => writeDps({ ...RJ_DPS_MODEL, prest: { ...RJ_DPS_MODEL.prest, id: { cNaoNIF: 0 } } })).toThrow(/CNPJ or CPF/);
  });
});
