// Fast enveloped-signature writer: the builders already emit Canonical XML 1.0, so the digest is taken over
// the bytes we hold and the document is never re-parsed (xml-crypto's SignedXml does, at ~1/20 the speed).
import { createHash, sign as rsaSign, type KeyObject } from 'node:crypto';
import { escapeAttr, XMLDSIG_NAMESPACE } from '../xml-text.js';
import { canonicalElement } from './canonical-element.js';
import { ENVELOPED_SIGNATURE, RSA_SHA1_C14N, type SignatureProfile, type SignedElementName } from './signature-profile.js';

export interface SigningKey {
  privateKey: KeyObject;
  /** DER certificate in base64 without line breaks. */
  certificateBase64: string;
}

export interface SignatureResult {
  /** The `<Signature xmlns="http://www.w3.org/2000/09/xmldsig#">` element, ready to append. */
  signatureXml: string;
  /** base64 digest (SHA-1 in the SEFAZ profile) of the canonical signed element (protNFe/digVal, QR code v2 offline). */
  digestValue: string;
}

// SignedInfo is written twice: canonical (C14N expands empty elements and carries the in-scope xmldsig
// namespace, since Signature redeclares the default namespace) for the RSA input, and compact for the
// document - the same serialization libxml2/xmlsec and sped-nfe produce, so signed files match theirs.
const C14N_TAIL = {
  canonical: (tag: string, alg: string) => `<${tag} Algorithm="${alg}"></${tag}>`,
  compact: (tag: string, alg: string) => `<${tag} Algorithm="${alg}"/>`,
};

/**
 * SignedInfo text in one of the two forms. Verifiers share it (authority-sim/signature-check.ts): a
 * document whose SignedInfo equals the compact text has this canonical form without a DOM. The
 * profile allows the two transforms in either order. `profile` names the algorithms (default: SEFAZ's).
 */
export function signedInfoText(
  form: keyof typeof C14N_TAIL,
  referenceUri: string,
  digestValue: string,
  transforms?: readonly [string, string],
  profile: SignatureProfile = RSA_SHA1_C14N,
): string {
  const e = C14N_TAIL[form];
  const ns = form === 'canonical' ? ` xmlns="${XMLDSIG_NAMESPACE}"` : '';
  const [first, second] = transforms ?? [ENVELOPED_SIGNATURE, profile.c14n];
  return (
    `<SignedInfo${ns}>` +
    e('CanonicalizationMethod', profile.c14n) +
    e('SignatureMethod', profile.signatureMethod) +
    `<Reference URI="${referenceUri}"><Transforms>` +
    e('Transform', first) +
    e('Transform', second) +
    `</Transforms>` +
    e('DigestMethod', profile.digestMethod) +
    `<DigestValue>${digestValue}</DigestValue></Reference></SignedInfo>`
  );
}

/**
 * Signs an element given as its exact Canonical XML 1.0 text (inherited xmlns included, e.g.
 * `<infNFe xmlns="http://www.portalfiscal.inf.br/nfe" Id="NFe..." versao="4.00">...</infNFe>`).
 */
export function signCanonical(canonical: string, referenceId: string, key: SigningKey, profile: SignatureProfile = RSA_SHA1_C14N): SignatureResult {
  const digestValue = createHash(profile.hash).update(canonical, 'utf8').digest('base64');
  const referenceUri = '#' + escapeAttr(referenceId);
  const signedInfo = signedInfoText('canonical', referenceUri, digestValue, undefined, profile);
  const signatureValue = rsaSign(profile.hash, Buffer.from(signedInfo, 'utf8'), key.privateKey).toString('base64');
  const signatureXml =
    `<Signature xmlns="${XMLDSIG_NAMESPACE}">` +
    signedInfoText('compact', referenceUri, digestValue, undefined, profile) +
    `<SignatureValue>${signatureValue}</SignatureValue>` +
    `<KeyInfo><X509Data><X509Certificate>${key.certificateBase64}</X509Certificate></X509Data></KeyInfo>` +
    `</Signature>`;
  return { signatureXml, digestValue };
}

/**
 * Signs the single `elementName` of a document we generated (already canonical text) and returns the
 * document with the Signature appended as the last child of that element's parent
 * (TNFe: after infNFeSupl; TEvento: after infEvento; TInutNFe: after infInut).
 */
export function signElement(
  xml: string,
  elementName: SignedElementName,
  key: SigningKey,
): { xml: string; digestValue: string; signatureXml: string } {
  const target = canonicalElement(xml, elementName);
  const { signatureXml, digestValue } = signCanonical(target.canonical, target.id, key);
  return {
    xml: xml.slice(0, target.parentCloseAt) + signatureXml + xml.slice(target.parentCloseAt),
    digestValue,
    signatureXml,
  };
}
