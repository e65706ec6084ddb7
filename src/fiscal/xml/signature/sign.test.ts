import { createHash, generateKeyPairSync, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalElement } from './canonical-element.js';
import { signCanonical, signElement } from './sign.js';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
const key = { privateKey, certificateBase64: 'MIIBfake' };
const NS = 'http://www.portalfiscal.inf.br/nfe';
const ID = 'NFe' + '1'.repeat(44);
const infNFe = `<infNFe Id="${ID}" versao="4.00"><ide><cUF>35</cUF></ide></infNFe>`;

describe('signCanonical', () => {
  it('digests the canonical bytes and signs SignedInfo in its canonical form', () => {
    const canonical = `<infNFe xmlns="${NS}" Id="${ID}" versao="4.00"><ide><cUF>35</cUF></ide></infNFe>`;
    const { signatureXml, digestValue } = signCanonical(canonical, ID, key);
    expect(digestValue).toBe(createHash('sha1').update(canonical).digest('base64'));
    expect(signatureXml).toMatch(/^<Signature xmlns="http:\/\/www\.w3\.org\/2000\/09\/xmldsig#"><SignedInfo><CanonicalizationMethod Algorithm="http:\/\/www\.w3\.org\/TR\/2001\/REC-xml-c14n-20010315"\/>/);
    expect(signatureXml).toContain(`<Reference URI="#${ID}">`);
    expect(signatureXml).toMatch(/<KeyInfo><X509Data><X509Certificate>MIIBfake<\/X509Certificate><\/X509Data><\/KeyInfo><\/Signature>$/);
    const signedInfo = /<SignedInfo>.*<\/SignedInfo>/.exec(signatureXml)![0]
      .replace('<SignedInfo>', `<SignedInfo xmlns="http://www.w3.org/2000/09/xmldsig#">`)
      .replace(/<(\w+)( Algorithm="[^"]+")\/>/g, '<$1$2></$1>');
    const value = /<SignatureValue>([^<]+)</.exec(signatureXml)![1]!;
    expect(verify('sha1', Buffer.from(signedInfo), publicKey, Buffer.from(value, 'base64'))).toBe(true);
  });
});

describe('signElement', () => {
  it('appends the Signature after infNFeSupl, as the last child of NFe', () => {
    const doc = `<NFe xmlns="${NS}">${infNFe}<infNFeSupl><qrCode>x</qrCode></infNFeSupl></NFe>`;
    const out = signElement(doc, 'infNFe', key);
    expect(out.xml).toBe(`<NFe xmlns="${NS}">${infNFe}<infNFeSupl><qrCode>x</qrCode></infNFeSupl>${out.signatureXml}</NFe>`);
  });

  it('writes every in-scope namespace and sorted attributes on the apex element', () => {
    const doc = `<?xml version="1.0"?><a:wrap xmlns:a="urn:a"><NFe xmlns="${NS}"><infNFe versao="4.00" Id="${ID}"><x>1</x></infNFe></NFe></a:wrap>`;
    expect(canonicalElement(doc, 'infNFe').canonical).toBe(`<infNFe xmlns="${NS}" xmlns:a="urn:a" Id="${ID}" versao="4.00"><x>1</x></infNFe>`);
  });

  it('refuses input that is not canonical or is ambiguous', () => {
    expect(() => signElement(`<NFe xmlns="${NS}"><infNFe Id="${ID}"><x/></infNFe></NFe>`, 'infNFe', key)).toThrow(/canonical/);
    expect(() => signElement(`<NFe xmlns="${NS}"><infNFe Id="${ID}"><![CDATA[x]]></infNFe></NFe>`, 'infNFe', key)).toThrow(/canonical/);
    expect(() => signElement(`<NFe xmlns="${NS}">${infNFe}${infNFe}</NFe>`, 'infNFe', key)).toThrow(/exactly one/);
    expect(() => signElement(`<NFe xmlns="${NS}"><infNFe versao="4.00"><x>1</x></infNFe></NFe>`, 'infNFe', key)).toThrow(/Id/);
  });
});
