import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateNfe, validateXml } from './validate-xml.js';

const samples = resolve(import.meta.dirname, '../../../../test/fixtures/samples');
const read = (p: string) => readFileSync(resolve(samples, p), 'utf8');
const nfeProc = read('nfe/nfe_v4.00_RS_homologacao_autorizada.xml');
const nfce = read('nfce/nfce_v4.00_BA_homologacao_offline_tpEmis9_qrv2_assinada_sem_protocolo.xml');

describe('validateXml', () => {
  it('accepts the real authorised NF-e and the BA NFC-e against both packages', () => {
    for (const pkg of ['PL_009', 'PL_010'] as const) {
      expect(validateNfe(nfeProc, pkg)).toEqual({ valid: true, errors: [] });
      expect(validateNfe(nfce, pkg)).toEqual({ valid: true, errors: [] });
    }
  });

  it('accepts the RTC (IBS/CBS) sample only with PL_010', () => {
    const rtc = read('nfe/nfe_v4.00_RTC_IBSCBS_sintetica_assinatura_invalida.xml');
    expect(validateNfe(rtc, 'PL_010').valid).toBe(true);
    expect(validateNfe(rtc, 'PL_009').valid).toBe(false);
  });

  it('names the element at fault with its position among repeated siblings', () => {
    let n = 0;
    const broken = nfce.replace(/<NCM>(\d+)<\/NCM>/g, (m, ncm: string) => (++n === 2 ? `<NCM>${ncm}X</NCM>` : m));
    expect(n).toBeGreaterThanOrEqual(2);
    const result = validateNfe(broken);
    expect(result.valid).toBe(false);
    expect(result.errors[0]!.message).toMatch(/NCM/);
    expect(result.errors[0]!.path).toBe('/NFe/infNFe/det[2]/prod/NCM');
    expect(result.errors[0]!.line).toBeGreaterThanOrEqual(1);
  });

  it('reports malformed XML as an invalid document instead of throwing', () => {
    const result = validateXml('<NFe xmlns="http://www.portalfiscal.inf.br/nfe"><infNFe>', { pkg: 'PL_009', file: 'nfe_v4.00.xsd' });
    expect(result.valid).toBe(false);
    expect(result.errors.length).toBeGreaterThan(0);
  });

  it('validates event and inutilização requests with their own root schemas', () => {
    const body = (f: string) => read(`events/${f}`).replace(/^<nfeDadosMsg[^>]*>/, '').replace(/<\/nfeDadosMsg>\s*$/, '');
    expect(validateXml(body('nfeDadosMsg_envEvento_110111_cancelamento_testcert.xml'), { pkg: 'PL_009', file: 'envEventoCancNFe_v1.00.xsd' }).valid).toBe(true);
    expect(validateXml(body('nfeDadosMsg_inutNFe_testcert.xml'), { pkg: 'PL_010', file: 'inutNFe_v4.00.xsd' }).valid).toBe(true);
    expect(() => validateXml('<a/>', { pkg: 'PL_009', file: '../secret.xsd' })).toThrow();
  });
});

describe('schemas shipped in Latin-1', () => {
  it('retEnvConfRecebto_v1.00.xsd compiles and judges the AN answer to a manifestation (sample 135 and 573)', () => {
    for (const f of ['retEnvEvento_210200_135_AN_sintetico.xml', 'retEnvEvento_210200_573_duplicidade_AN_sintetico.xml']) {
      const xml = read(`responses/${f}`);
      for (const pkg of ['PL_009', 'PL_010'] as const) {
        expect(validateXml(xml, { pkg, file: 'retEnvConfRecebto_v1.00.xsd' }).valid).toBe(true);
        expect(validateXml(xml.replace('<cOrgao>91</cOrgao>', '<cOrgao>99</cOrgao>'), { pkg, file: 'retEnvConfRecebto_v1.00.xsd' }).valid).toBe(false);
      }
    }
  });
});
