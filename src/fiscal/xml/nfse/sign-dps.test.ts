import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../kernel/paths.js';
import { NFSE_ID_ELEMENTS, xmllint, xmlsecVerify } from '../../../../test/support/xml-tools.js';
import { RJ_DPS_FILE, RJ_DPS_MODEL, RJ_NFSE_FILE, readNfseSample } from '../../../../test/support/nfse-samples.js';
import { parsePfx } from '../../certificate/pfx.js';
import { verifyXmlSignature } from '../signature/verify.js';
import { DEFAULT_DPS_SIGNATURE_PROFILE, signDps, verifyNfseDocument } from './sign-dps.js';

const key = parsePfx(readFileSync(join(PROJECT_ROOT, 'test/fixtures/certs/novo_test_certificate.pfx')), 'nfephp');
// xmlsec1 checks the first Signature in document order: in an NFS-e that is the DPS's (inside infNFSe).
const NFSE_SIGNATURE = "/*/*[local-name()='Signature']";

describe('real NFS-e documents (restricted production, docs/fiscal/nfse-national.md#signature)', () => {
  const nfse = readNfseSample(RJ_NFSE_FILE);
  it('the NFS-e (Sefin: RSA-SHA256, exc-C14N WithComments) and its DPS (RSA-SHA1, C14N) verify with our verifier', () => {
    const result = verifyNfseDocument(nfse);
    expect(result).toMatchObject({ valid: true, signedElementIds: ['NFS33045572211905971000105000000000014625124504258429', 'DPS330455721190597100010500333000000000000006'] });
    expect(result.certificate?.commonName).toBe('www.producaorestrita.nfse.gov.br');
    expect(verifyNfseDocument(readNfseSample(RJ_DPS_FILE))).toMatchObject({ valid: true, certificate: { cnpj: '11905971000105' } });
  });
  it('both signatures verify with xmlsec1', async () => {
    expect(await xmlsecVerify(nfse, NFSE_ID_ELEMENTS)).toBe('');
    expect(await xmlsecVerify(nfse, NFSE_ID_ELEMENTS, NFSE_SIGNATURE)).toBe('');
    expect(await xmlsecVerify(readNfseSample(RJ_DPS_FILE), NFSE_ID_ELEMENTS)).toBe('');
  });
  it('a changed NFS-e or DPS fails', () => {
    expect(verifyNfseDocument(nfse.replace('<nNFSe>146', '<nNFSe>147'))).toMatchObject({ valid: false, reason: 'digest' });
    expect(verifyNfseDocument(nfse.replace('<vServ>10000.00', '<vServ>10000.01'))).toMatchObject({ valid: false, reason: 'digest' });
  });
  it('the NF-e profile stays RSA-SHA1 + inclusive C14N only', () => {
    const asNfe = verifyXmlSignature(nfse, { signedElements: [['NFSe', 'infNFSe']] });
    expect(asNfe).toMatchObject({ valid: false, reason: 'profile', detail: 'CanonicalizationMethod must be inclusive C14N 1.0' });
  });
});

describe('signDps', () => {
  it('defaults to RSA-SHA1 + C14N and gives the real DPS its own digest', () => {
    expect(DEFAULT_DPS_SIGNATURE_PROFILE).toBe('rsa-sha1-c14n');
    const signed = signDps(RJ_DPS_MODEL, key);
    // same infDPS bytes as the real DPS, hence the same SHA-1 digest
    expect(signed.digestValue).toBe(/<DigestValue>([^<]+)</.exec(readNfseSample(RJ_DPS_FILE))![1]);
    expect(signed.id).toBe('DPS330455721190597100010500333000000000000006');
    expect(signed.xml).toMatch(/<\/infDPS><Signature xmlns="http:\/\/www\.w3\.org\/2000\/09\/xmldsig#"><SignedInfo><CanonicalizationMethod Algorithm="http:\/\/www\.w3\.org\/TR\/2001\/REC-xml-c14n-20010315"\/><SignatureMethod Algorithm="http:\/\/www\.w3\.org\/2000\/09\/xmldsig#rsa-sha1"\/>/);
    expect(signed.xml.endsWith('</X509Certificate></X509Data></KeyInfo></Signature></DPS>')).toBe(true);
  });

  for (const profile of ['rsa-sha1-c14n', 'rsa-sha256-exc-c14n'] as const) {
    it(`${profile}: our verifier, xmlsec1 and the national XSD accept the signed DPS`, async () => {
      const { xml } = signDps(RJ_DPS_MODEL, key, profile);
      expect(verifyNfseDocument(xml)).toMatchObject({ valid: true, signedElementIds: ['DPS330455721190597100010500333000000000000006'] });
      expect(await xmlsecVerify(xml, NFSE_ID_ELEMENTS)).toBe('');
      expect(await xmllint(xml, 'NFSe_v1.01', 'DPS_v1.01.xsd')).toBe('');
      expect(verifyNfseDocument(xml.replace('<nDPS>6</nDPS>', '<nDPS>7</nDPS>'))).toMatchObject({ valid: false, reason: 'digest' });
    });
  }

  it('the SHA-256 profile writes its algorithms and the NF-e verifier refuses it', () => {
    const { xml } = signDps(RJ_DPS_MODEL, key, 'rsa-sha256-exc-c14n');
    expect(xml).toContain('<CanonicalizationMethod Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/><SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/>');
    expect(xml).toContain('<Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/><Transform Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/></Transforms><DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/>');
    expect(verifyXmlSignature(xml, { signedElements: [['DPS', 'infDPS']] })).toMatchObject({ valid: false, reason: 'profile' });
  });
});
