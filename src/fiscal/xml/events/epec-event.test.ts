import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { xmllint, xmlsecVerify } from '../../../../test/support/xml-tools.js';
import { accessKeyCheckDigit } from '../../layout/access-key.js';
import { parsePfx } from '../../certificate/pfx.js';
import { NFE_NAMESPACE } from '../xml-text.js';
import { buildEnvEvento, buildEpecEvent, epecProblems, epecSummaryOfNfe, EventInputError, type EpecInput } from './index.js';

// docs/fiscal/epec.md: 110140 to the Ambiente Nacional, checked by xmllint with envEPEC_v1.00.xsd and
// e110140NFe_v1.00.xsd (PL_010_V1.30, the package the events are validated with) and by xmlsec1.
const root = resolve(import.meta.dirname, '../../../..');
const key = parsePfx(readFileSync(join(root, 'test/fixtures/certs/novo_test_certificate.pfx')), 'nfephp');
const PKG = 'PL_010_V1.30';
const BODY = '35261105730928000145550010000048664583302923'.slice(0, 43);
const chNFe = BODY + accessKeyCheckDigit(BODY);
const detEvento = (xml: string) => /<detEvento[^>]*>[\s\S]*<\/detEvento>/.exec(xml)![0].replace('<detEvento', `<detEvento xmlns="${NFE_NAMESPACE}"`);
const input: EpecInput = {
  cOrgao: '91', tpAmb: 2, author: { CNPJ: '05730928000145' }, chNFe, dhEvento: '2026-11-29T10:00:05-03:00',
  cOrgaoAutor: '35', verAplic: 'gateway-1.0', dhEmi: '2026-11-29T10:00:00-03:00', tpNF: 1, IE: '111222333444',
  dest: { UF: 'RJ', id: { CPF: '52998224725' } }, vNF: '116.00', vICMS: '12.00', vST: '0.00',
};

describe('EPEC of an NF-e (110140)', () => {
  it('passes envEPEC and e110140NFe (xmllint) and xmlsec1; a changed vNF breaks the signature', async () => {
    const ev = buildEpecEvent(input, key);
    expect(ev.id).toBe(`ID110140${chNFe}01`);
    const env = buildEnvEvento(1, [ev]);
    expect(env).toContain('<cOrgao>91</cOrgao>');
    expect(env).toContain('<descEvento>EPEC</descEvento>');
    expect(await xmllint(env, PKG, 'envEPEC_v1.00.xsd')).toBe('');
    expect(await xmllint(detEvento(env), PKG, 'e110140NFe_v1.00.xsd')).toBe('');
    expect(await xmlsecVerify(env)).toBe('');
    expect(await xmlsecVerify(env.replace('<vNF>116.00</vNF>', '<vNF>117.00</vNF>'))).not.toBe('');
    const company = buildEnvEvento(2, [buildEpecEvent({ ...input, dest: { UF: 'SP', id: { CNPJ: '10422724000187' }, IE: '111222333444' } }, key)]);
    expect(await xmllint(company, PKG, 'envEPEC_v1.00.xsd')).toBe('');
  });

  it('refuses another cOrgao, a key without tpEmis 4 and a bad amount, naming each field', () => {
    const normalBody = chNFe.slice(0, 34) + '1' + chNFe.slice(35, 43);
    const fields = epecProblems({ ...input, cOrgao: '35', chNFe: normalBody + accessKeyCheckDigit(normalBody), vICMS: '12' }).map((e) => e.field);
    expect(fields).toEqual(['cOrgao', 'chNFe', 'vICMS']);
    expect(() => buildEpecEvent({ ...input, cOrgao: '35' }, key)).toThrow(EventInputError);
  });

  it('reads the summary the state compares (MOC 2AB08-30) from the signed note', () => {
    const nfe = `<NFe xmlns="${NFE_NAMESPACE}"><infNFe Id="NFe${chNFe}" versao="4.00"><ide><cUF>35</cUF><dhEmi>2026-11-29T10:00:00-03:00</dhEmi><tpNF>1</tpNF></ide>` +
      '<emit><CNPJ>05730928000145</CNPJ><enderEmit><UF>SP</UF></enderEmit><IE>111222333444</IE></emit>' +
      '<dest><CPF>52998224725</CPF><enderDest><UF>RJ</UF></enderDest><indIEDest>9</indIEDest></dest>' +
      '<total><ICMSTot><vICMS>12.00</vICMS><vST>0.00</vST><vNF>116.00</vNF></ICMSTot></total></infNFe></NFe>';
    expect(epecSummaryOfNfe(nfe)).toEqual({
      chNFe, cOrgaoAutor: '35', dhEmi: '2026-11-29T10:00:00-03:00', tpNF: 1, IE: '111222333444',
      dest: { UF: 'RJ', id: { CPF: '52998224725' } }, vNF: '116.00', vICMS: '12.00', vST: '0.00',
    });
    expect(epecSummaryOfNfe(nfe.replace(/<dest>[\s\S]*<\/dest>/, ''))).toBeNull();
  });
});
