import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { xmllint, xmlsecVerify } from '../../../../test/support/xml-tools.js';
import { parsePfx } from '../../certificate/pfx.js';
import { NFE_NAMESPACE } from '../xml-text.js';
import type { EventInputError} from './index.js';
import {
  buildCorrectionLetterEvent, buildEnvEvento, buildManifestationEvent, buildProcEventoNFe, CCE_CONDITIONS_OF_USE,
  ProcEventoMismatchError, type CorrectionLetterInput, type ManifestationInput, type ManifestationType,
} from './index.js';

const root = resolve(import.meta.dirname, '../../../..');
const key = parsePfx(readFileSync(join(root, 'test/fixtures/certs/novo_test_certificate.pfx')), 'nfephp');
const sample = (f: string) => readFileSync(join(root, 'test/fixtures/samples', f), 'utf8');
const PACKAGES = ['PL_009_V4', 'PL_010_V1.30'] as const;

/** The samples are SOAP bodies: nfeDadosMsg around the request. */
const asSample = (request: string) => `<nfeDadosMsg xmlns="http://www.portalfiscal.inf.br/nfe/wsdl/NFeRecepcaoEvento4">${request}</nfeDadosMsg>`;
/** detEvento alone, in the NF-e namespace: the root element of the per-event schemas (e110110, e2102xx). */
const detEvento = (xml: string) => /<detEvento[^>]*>[\s\S]*<\/detEvento>/.exec(xml)![0].replace('<detEvento', `<detEvento xmlns="${NFE_NAMESPACE}"`);
const fields = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return (err as EventInputError).errors.map((e) => e.field);
  }
  return [];
};

const cce: CorrectionLetterInput = {
  cOrgao: '35', tpAmb: 2, author: { CNPJ: '93623057000128' }, chNFe: '35220605730928000145550010000048661583302923',
  dhEvento: '2024-05-31T11:59:12-03:00', nSeqEvento: 1, xCorrecao: 'Descrição da correção',
};

describe('CC-e 110110', () => {
  it('reproduces the sped-nfe request byte for byte', () => {
    const original = sample('events/nfeDadosMsg_envEvento_110110_cce_testcert.xml');
    expect(asSample(buildEnvEvento(12345, [buildCorrectionLetterEvent(cce, key)]))).toBe(original.trimEnd());
  });

  it('writes xCondUso exactly as one of the two values the e110110 XSD enumerates', () => {
    for (const pkg of PACKAGES) {
      const xsd = readFileSync(join(root, 'assets/fiscal/schemas', pkg, 'e110110_v1.00.xsd'), 'utf8');
      const block = /<xs:element name="xCondUso">[\s\S]*?<\/xs:element>/.exec(xsd)![0];
      const values = [...block.matchAll(/<xs:enumeration value="([^"]*)"/g)].map((m) => m[1]);
      expect(values).toEqual([CCE_CONDITIONS_OF_USE.accented, CCE_CONDITIONS_OF_USE.plain]);
    }
    expect(buildCorrectionLetterEvent(cce, key).xml).toContain(`<xCondUso>${CCE_CONDITIONS_OF_USE.plain}</xCondUso>`);
  });

  it('validates with xmllint (envCCe and e110110, both packages) and verifies with xmlsec1, for nSeqEvento 1 to 20', async () => {
    const long = `Onde se le  CFOP 5102\nleia-se CFOP 5405; ${'x'.repeat(960)}`;
    for (const nSeqEvento of [1, 20]) {
      const ev = buildCorrectionLetterEvent({ ...cce, nSeqEvento, xCorrecao: long }, key);
      expect(ev.id).toBe(`ID110110${cce.chNFe}${String(nSeqEvento).padStart(2, '0')}`);
      expect(ev.xml).toContain('<xCorrecao>Onde se le CFOP 5102 leia-se CFOP 5405; x');
      const env = buildEnvEvento(1, [ev]);
      for (const pkg of PACKAGES) {
        expect(await xmllint(env, pkg, 'envCCe_v1.00.xsd')).toBe('');
        expect(await xmllint(detEvento(env), pkg, 'e110110_v1.00.xsd')).toBe('');
      }
      expect(await xmlsecVerify(env)).toBe('');
    }
    // The referees can say no.
    const env = buildEnvEvento(1, [buildCorrectionLetterEvent(cce, key)]);
    expect(await xmllint(detEvento(env).replace('Carta de Correcao<', 'Carta de correcao<'), 'PL_009_V4', 'e110110_v1.00.xsd')).not.toBe('');
    expect(await xmlsecVerify(env.replace('correção', 'correçãO'))).not.toBe('');
  });

  it('refuses a short or long text, nSeqEvento 21, an NFC-e key and a state code that is not a UF', () => {
    expect(fields(() => buildCorrectionLetterEvent({ ...cce, xCorrecao: '  curta demais ' }, key))).toEqual(['xCorrecao']);
    expect(fields(() => buildCorrectionLetterEvent({ ...cce, xCorrecao: 'y'.repeat(1001) }, key))).toEqual(['xCorrecao']);
    expect(fields(() => buildCorrectionLetterEvent({ ...cce, xCorrecao: 'correção com emoji 🙂 aqui' }, key))).toEqual(['xCorrecao']);
    const nfce = '35240305730928000145650010000001421071400478';
    expect(fields(() => buildCorrectionLetterEvent({ ...cce, chNFe: nfce, nSeqEvento: 21, cOrgao: '91' }, key))).toEqual(['cOrgao', 'nSeqEvento', 'chNFe']);
  });
});

const manifestation: ManifestationInput = {
  tpAmb: 2, author: { CNPJ: '93623057000128' }, chNFe: '35240305730928000145650010000001421071400478',
  dhEvento: '2024-02-01T14:07:05-03:00', tpEvento: '210210',
};
const SCHEMAS: Record<ManifestationType, string> = {
  '210200': 'e210200_v1.00.xsd', '210210': 'e210210_v1.00.xsd', '210220': 'e210220_v1.00.xsd', '210240': 'e210240_v1.00.xsd',
};

describe('recipient manifestation 2102xx', () => {
  it('reproduces the sped-nfe 210210 request byte for byte (cOrgao 91)', () => {
    const original = sample('events/nfeDadosMsg_envEvento_manifestacao_testcert.xml');
    expect(asSample(buildEnvEvento(123, [buildManifestationEvent(manifestation, key)]))).toBe(original.trimEnd());
  });

  it('each type validates with xmllint (envConfRecebto and its e2102xx, both packages) and verifies with xmlsec1', async () => {
    const cases: ManifestationInput[] = [
      { ...manifestation, tpEvento: '210200' },
      { ...manifestation, tpEvento: '210210', author: { CPF: '12345678909' } },
      { ...manifestation, tpEvento: '210220' },
      { ...manifestation, tpEvento: '210220', xJust: 'Nao reconhecemos esta compra' },
      { ...manifestation, tpEvento: '210240', xJust: 'Mercadoria  devolvida\nna portaria', nSeqEvento: 2 },
    ];
    for (const input of cases) {
      const env = buildEnvEvento(7, [buildManifestationEvent(input, key)]);
      expect(env).toContain('<cOrgao>91</cOrgao>');
      for (const pkg of PACKAGES) {
        expect(await xmllint(env, pkg, 'envConfRecebto_v1.00.xsd')).toBe('');
        expect(await xmllint(detEvento(env), pkg, SCHEMAS[input.tpEvento])).toBe('');
      }
      expect(await xmlsecVerify(env)).toBe('');
    }
    const operationNotPerformed = buildManifestationEvent({ ...manifestation, tpEvento: '210240', xJust: 'Mercadoria  devolvida\nna portaria' }, key);
    expect(operationNotPerformed.xml).toContain('<descEvento>Operacao nao Realizada</descEvento><xJust>Mercadoria devolvida na portaria</xJust>');
    // 210240 without xJust is what its XSD refuses (the builder never writes it).
    const withoutJust = detEvento(operationNotPerformed.xml).replace(/<xJust>.*<\/xJust>/, '');
    expect(await xmllint(withoutJust, 'PL_009_V4', 'e210240_v1.00.xsd')).not.toBe('');
  });

  it('requires xJust for 210240, refuses it for 210200/210210, and checks its length', () => {
    expect(fields(() => buildManifestationEvent({ ...manifestation, tpEvento: '210240' }, key))).toEqual(['xJust']);
    expect(fields(() => buildManifestationEvent({ ...manifestation, tpEvento: '210200', xJust: 'uma justificativa longa' }, key))).toEqual(['xJust']);
    expect(fields(() => buildManifestationEvent({ ...manifestation, tpEvento: '210220', xJust: 'curta' }, key))).toEqual(['xJust']);
    expect(fields(() => buildManifestationEvent({ ...manifestation, tpEvento: '110110' as ManifestationType }, key))).toEqual(['tpEvento']);
  });
});

describe('procEventoNFe', () => {
  it('pairs a signed 210200 with its answer: valid against procEventoNFe and procConfRecebtoNFe, signature intact', async () => {
    const answer = sample('responses/retEnvEvento_210200_135_AN_sintetico.xml');
    const retEvento = /<retEvento[\s\S]*<\/retEvento>/.exec(answer)![0];
    const evento = buildManifestationEvent(
      { ...manifestation, tpAmb: 1, tpEvento: '210200', chNFe: '35260311444777000161550010000123451876543216', author: { CNPJ: '11222333000181' } },
      key,
    );
    const proc = buildProcEventoNFe(evento.xml, retEvento);
    expect(proc).toBe(`<procEventoNFe xmlns="${NFE_NAMESPACE}" versao="1.00">${evento.xml}${retEvento}</procEventoNFe>`);
    for (const pkg of PACKAGES) {
      expect(await xmllint(proc, pkg, 'procEventoNFe_v1.00.xsd')).toBe('');
      expect(await xmllint(proc, pkg, 'procConfRecebtoNFe_v1.00.xsd')).toBe('');
    }
    expect(await xmlsecVerify(proc)).toBe('');
    expect(() => buildProcEventoNFe(evento.xml, retEvento.replace('<nSeqEvento>1<', '<nSeqEvento>2<'))).toThrow(ProcEventoMismatchError);
    expect(() => buildProcEventoNFe(retEvento, evento.xml)).toThrow(ProcEventoMismatchError);
  });

  it('reassembles the real DF production CC-e from its parts without touching the signed bytes', async () => {
    const real = sample('events/procEventoNFe_110110_CCe_DF_producao.xml');
    const evento = /<evento[ >][\s\S]*<\/evento>/.exec(real)![0];
    const retEvento = /<retEvento[ >][\s\S]*<\/retEvento>/.exec(real)![0];
    const proc = buildProcEventoNFe(evento, retEvento);
    expect(proc).toContain(evento);
    expect(await xmllint(proc, 'PL_009_V4', 'procCCeNFe_v1.00.xsd')).toBe('');
    expect(await xmlsecVerify(proc)).toBe('');
  });
});
