// Byte-for-byte proof of the signer: sped-nfe signed these request bodies with the same test key; RSA
// PKCS#1 v1.5 is deterministic, so stripping the Signature and re-signing must give back the very file.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePfx } from '../src/fiscal/certificate/pfx.js';
import { signCanonical, signElement } from '../src/fiscal/xml/signature/sign.js';

const samples = resolve(import.meta.dirname, 'fixtures/samples/events');
const key = parsePfx(readFileSync(resolve(import.meta.dirname, 'fixtures/certs/novo_test_certificate.pfx')), 'nfephp');
const files = readdirSync(samples).filter((f) => /^nfeDadosMsg_.*_testcert\.xml$/.test(f));
const SIGNATURE = /<Signature xmlns="http:\/\/www\.w3\.org\/2000\/09\/xmldsig#">.*?<\/Signature>/s;

/** xmlsec1 (not our code) as the referee, reading the document from stdin. */
const xmlsecVerify = (xml: string) =>
  spawnSync('xmlsec1', ['--verify', '--insecure', '--id-attr:Id', 'infNFe', '--id-attr:Id', 'infEvento', '--id-attr:Id', 'infInut', '-'], { input: xml }).status === 0;

describe('re-signing the sped-nfe test-certificate samples', () => {
  it('finds the five samples (cancel, cancel by substitution, CC-e, manifestation, inutilização)', () => {
    expect(files).toHaveLength(5);
  });

  for (const file of files) {
    const original = readFileSync(join(samples, file), 'utf8');
    const element = file.includes('inutNFe') ? 'infInut' : 'infEvento';
    const unsigned = original.replace(SIGNATURE, '');

    it(`${file}: signElement reproduces the whole file byte for byte`, () => {
      expect(unsigned).not.toBe(original);
      const signed = signElement(unsigned, element, key);
      expect(Buffer.from(signed.xml, 'utf8').equals(Buffer.from(original, 'utf8'))).toBe(true);
      expect(signed.signatureXml).toBe(SIGNATURE.exec(original)![0]);
    });

    it(`${file}: signCanonical over the hand-derived canonical form gives the same Signature bytes`, () => {
      // infEvento/infInut inherit xmlns from evento/inutNFe; inclusive C14N writes it on the apex element.
      const body = new RegExp(`<${element} Id="([^"]+)">.*</${element}>`, 's').exec(unsigned)!;
      const canonical = body[0].replace(`<${element} `, `<${element} xmlns="http://www.portalfiscal.inf.br/nfe" `);
      const { signatureXml, digestValue } = signCanonical(canonical, body[1]!, key);
      expect(signatureXml).toBe(SIGNATURE.exec(original)![0]);
      expect(original).toContain(`<DigestValue>${digestValue}</DigestValue>`);
    });

    it(`${file}: xmlsec1 verifies our output and rejects a one-character change`, () => {
      const signed = signElement(unsigned, element, key).xml;
      expect(xmlsecVerify(signed)).toBe(true);
      expect(xmlsecVerify(signed.replace(/<tpAmb>(\d)<\/tpAmb>/, (_m, d: string) => `<tpAmb>${d === '1' ? '2' : '1'}</tpAmb>`))).toBe(false);
    });
  }
});
