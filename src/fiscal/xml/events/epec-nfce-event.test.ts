import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { xmllint, xmlsecVerify } from '../../../../test/support/xml-tools.js';
import { accessKeyCheckDigit } from '../../layout/access-key.js';
import { parsePfx } from '../../certificate/pfx.js';
import { NFE_NAMESPACE } from '../xml-text.js';
import { buildEnvEvento, buildEpecNfceEvent, epecNfceProblems, epecSummaryOfNfce, EventInputError, type EpecNfceInput } from './index.js';

// docs/fiscal/offline-contingency.md#epec-sp: SP's NFC-e EPEC, checked by xmllint with the lot schema
// eventoEPEC_v1.00.xsd (dest optional) and e110140NFCe_v1.00.xsd (the detEvento alone) and by xmlsec1.
const root = resolve(import.meta.dirname, '../../../..');
const key = parsePfx(readFileSync(join(root, 'test/fixtures/certs/novo_test_certificate.pfx')), 'nfephp');
const PKG = 'PL_010_V1.30';
const BODY = '3526110573092800014565001000004866458330292';
const chNFe = BODY + accessKeyCheckDigit(BODY);
const detEvento = (xml: string) => /<detEvento[^>]*>[\s\S]*<\/detEvento>/.exec(xml)![0].replace('<detEvento', `<detEvento xmlns="${NFE_NAMESPACE}"`);
const input: EpecNfceInput = {
  cOrgao: '35', tpAmb: 2, author: { CNPJ: '05730928000145' }, chNFe, dhEvento: '2026-11-29T10:00:05-03:00',
  cOrgaoAutor: '35', verAplic: 'gateway-1.0', dhEmi: '2026-11-29T10:00:00-03:00', tpNF: 1, IE: '111222333444',
  dest: { UF: 'SP', id: { CPF: '52998224725' } }, vNF: '23.50', vICMS: '4.23',
};

describe('EPEC of an NFC-e (110140, SP)', () => {
  it('passes eventoEPEC and e110140NFCe (xmllint) and xmlsec1, with vNF/vICMS in detEvento and no vST', async () => {
    const ev = buildEpecNfceEvent(input, key);
    expect(ev.id).toBe(`ID110140${chNFe}01`);
    const env = buildEnvEvento(7, [ev]);
    expect(env).toContain('<cOrgao>35</cOrgao>');
    expect(env).toContain('<dest><UF>SP</UF><CPF>52998224725</CPF></dest><vNF>23.50</vNF><vICMS>4.23</vICMS></detEvento>');
    expect(env).not.toContain('vST');
    expect(await xmllint(env, PKG, 'eventoEPEC_v1.00.xsd')).toBe('');
    expect(await xmllint(detEvento(env), PKG, 'e110140NFCe_v1.00.xsd')).toBe('');
    // The NF-e lot schema wants vST inside dest: this is not an NF-e EPEC.
    expect(await xmllint(env, PKG, 'envEPEC_v1.00.xsd')).not.toBe('');
    expect(await xmlsecVerify(env)).toBe('');
    expect(await xmlsecVerify(env.replace('<vNF>23.50</vNF>', '<vNF>23.51</vNF>'))).not.toBe('');
  });

  it('leaves dest out for an unidentified consumer: the lot schema takes it (NT nº 3 v1.01), e110140NFCe alone does not', async () => {
    const { dest: _dest, ...anonymous } = input;
    const env = buildEnvEvento(8, [buildEpecNfceEvent(anonymous, key)]);
    expect(env).not.toContain('<dest>');
    expect(await xmllint(env, PKG, 'eventoEPEC_v1.00.xsd')).toBe('');
    expect(await xmllint(detEvento(env), PKG, 'e110140NFCe_v1.00.xsd')).not.toBe('');
    expect(await xmlsecVerify(env)).toBe('');
  });

  it("refuses the AN's cOrgao, an NF-e key, a key without tpEmis 4 and a bad amount, naming each field", () => {
    expect(epecNfceProblems({ ...input, cOrgao: '91' }).map((e) => e.field)).toEqual(['cOrgao']);
    const nfeBody = BODY.slice(0, 20) + '55' + BODY.slice(22);
    expect(epecNfceProblems({ ...input, chNFe: nfeBody + accessKeyCheckDigit(nfeBody) }).map((e) => e.field)).toEqual(['chNFe']);
    const normalBody = BODY.slice(0, 34) + '1' + BODY.slice(35);
    expect(epecNfceProblems({ ...input, chNFe: normalBody + accessKeyCheckDigit(normalBody), vICMS: '4.2' }).map((e) => e.field)).toEqual(['chNFe', 'vICMS']);
    expect(() => buildEpecNfceEvent({ ...input, cOrgao: '91' }, key)).toThrow(EventInputError);
  });

  it('reads the summary the state compares from the signed NFC-e; a consumer without address is in the issuer state', () => {
    const nfce = `<NFe xmlns="${NFE_NAMESPACE}"><infNFe Id="NFe${chNFe}" versao="4.00"><ide><cUF>35</cUF><dhEmi>2026-11-29T10:00:00-03:00</dhEmi><tpNF>1</tpNF></ide>` +
      '<emit><CNPJ>05730928000145</CNPJ><enderEmit><UF>SP</UF></enderEmit><IE>111222333444</IE></emit>' +
      '<dest><CPF>52998224725</CPF><indIEDest>9</indIEDest></dest>' +
      '<total><ICMSTot><vICMS>4.23</vICMS><vST>0.00</vST><vNF>23.50</vNF></ICMSTot></total></infNFe></NFe>';
    const summary = { chNFe, cOrgaoAutor: '35', dhEmi: '2026-11-29T10:00:00-03:00', tpNF: 1, IE: '111222333444', vNF: '23.50', vICMS: '4.23' };
    expect(epecSummaryOfNfce(nfce)).toEqual({ ...summary, dest: { UF: 'SP', id: { CPF: '52998224725' } } });
    expect(epecSummaryOfNfce(nfce.replace(/<dest>[\s\S]*<\/dest>/, ''))).toEqual(summary);
    expect(epecSummaryOfNfce(nfce.replace(/<IE>111222333444<\/IE>/, ''))).toBeNull();
  });
});
