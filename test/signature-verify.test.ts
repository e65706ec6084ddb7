// The general verifier against real signed documents, tampered copies and profile deviations,
// cross-checked with xmlsec1 (a tool we did not write).
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifyXmlSignature } from '../src/fiscal/xml/signature/verify.js';

const samples = resolve(import.meta.dirname, 'fixtures/samples');
// SOURCES.md: every sample is "sig OK" except the synthetic RTC NF-e (fake signature, ns1: prefix).
const signed = ['nfce', 'nfe', 'events']
  .flatMap((dir) => readdirSync(join(samples, dir)).map((f) => `${dir}/${f}`))
  .filter((f) => !f.includes('assinatura_invalida'));
const read = (f: string) => readFileSync(join(samples, f), 'utf8');

/** xmlsec1 (not our code) as the referee, reading the document from stdin. */
const xmlsecVerify = (xml: string) =>
  spawnSync('xmlsec1', ['--verify', '--insecure', '--id-attr:Id', 'infNFe', '--id-attr:Id', 'infEvento', '--id-attr:Id', 'infInut', '-'], { input: xml }).status === 0;

/** Changes the first character of the first text inside the signed element. */
function tamper(xml: string): string {
  return xml.replace(/(<(?:infNFe|infEvento|infInut) [^>]*>(?:<[^>/]+>)+)(.)/, (_m, head: string, c: string) => head + (c === '1' ? '2' : '1'));
}

describe('verifyXmlSignature on real signed samples', () => {
  it('covers the 12 signature-valid samples', () => expect(signed).toHaveLength(12));

  for (const file of signed) {
    it(`${file}: valid (and xmlsec1 agrees); a one-character change fails with "digest"`, () => {
      const xml = read(file);
      const result = verifyXmlSignature(xml);
      expect(result).toMatchObject({ valid: true });
      expect(result.signedElementId).toMatch(/^(NFe|ID)[0-9]+$/);
      expect(result.certificate?.notAfter).toBeInstanceOf(Date);
      expect(xmlsecVerify(xml)).toBe(true);
      const bad = tamper(xml);
      expect(bad).not.toBe(xml);
      expect(verifyXmlSignature(bad)).toMatchObject({ valid: false, reason: 'digest' });
      expect(xmlsecVerify(bad)).toBe(false);
    });
  }

  it('reads the ICP-Brasil CNPJ of the real signers', () => {
    expect(verifyXmlSignature(read('nfe/nfe_v4.00_RS_homologacao_autorizada.xml')).certificate?.cnpj).toBe('06929383000163');
    expect(verifyXmlSignature(read('events/procEventoNFe_110110_CCe_DF_producao.xml')).certificate?.cnpj).toBe('11028793000173');
  });
});

describe('verifyXmlSignature failure reasons', () => {
  const cancel = read('events/nfeDadosMsg_envEvento_110111_cancelamento_testcert.xml');

  it('a changed SignatureValue is a signature mismatch (297)', () => {
    const bad = cancel.replace(/<SignatureValue>m5aj/, '<SignatureValue>m6aj');
    expect(verifyXmlSignature(bad)).toMatchObject({ valid: false, reason: 'signature' });
  });

  it('deviations from the SEFAZ pattern are "profile" (298)', () => {
    const cases: Record<string, string> = {
      exclusiveC14n: cancel.replace('<CanonicalizationMethod Algorithm="http://www.w3.org/TR/2001/REC-xml-c14n-20010315"/>', '<CanonicalizationMethod Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/>'),
      sha256: cancel.replace('xmldsig#rsa-sha1', 'xmldsig-more#rsa-sha256'),
      prefix: cancel.replace('<Signature xmlns="http://www.w3.org/2000/09/xmldsig#">', '<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#">').replace('</Signature>', '</ds:Signature>'),
      otherReference: cancel.replace('<Reference URI="#ID110111', '<Reference URI="#ID110119'),
      oneTransform: cancel.replace('<Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/>', ''),
      noCertificate: cancel.replace(/<KeyInfo>.*<\/KeyInfo>/, '<KeyInfo></KeyInfo>'),
      twoSignatures: cancel.replace(/(<Signature .*<\/Signature>)/, '$1$1'),
    };
    for (const [name, xml] of Object.entries(cases)) {
      expect(xml, name).not.toBe(cancel);
      expect(verifyXmlSignature(xml), name).toMatchObject({ valid: false, reason: 'profile' });
    }
    expect(verifyXmlSignature(read('nfe/nfe_v4.00_RTC_IBSCBS_sintetica_assinatura_invalida.xml'))).toMatchObject({ valid: false, reason: 'profile' });
  });

  it('no signature, malformed XML and an unreadable certificate are told apart', () => {
    expect(verifyXmlSignature(cancel.replace(/<Signature .*<\/Signature>/, ''))).toMatchObject({ valid: false, reason: 'no_signature' });
    expect(verifyXmlSignature(cancel.slice(0, 500))).toMatchObject({ valid: false, reason: 'malformed' });
    expect(verifyXmlSignature(cancel.replace(/<X509Certificate>MIIF/, '<X509Certificate>AAAA'))).toMatchObject({ valid: false, reason: 'certificate' });
  });
});
