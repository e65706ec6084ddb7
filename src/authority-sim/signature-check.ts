// PRIVATE ADAPTER until src/fiscal/xml/signature/verify.ts (signature engineer) lands: the
// authority's view of an enveloped signature - profile first (298), then digest and value (297).
import { createHash, verify as rsaVerify, X509Certificate } from 'node:crypto';
import { canonicalElement } from '../fiscal/xml/signature/canonical-element.js';
import { sliceElement } from '../fiscal/sefaz/xml-slice.js';
import { DOMParser, type Element } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import {
  C14N_INCLUSIVE,
  DIGEST_SHA1,
  ENVELOPED_SIGNATURE,
  RSA_SHA1,
} from '../fiscal/xml/signature/signature-profile.js';
import { XMLDSIG_NAMESPACE } from '../fiscal/xml/xml-text.js';

export type SignatureCheck =
  | { ok: true; certificate: X509Certificate; digestValue: string }
  | { ok: false; cStat: 297 | 298; reason: string };

const fail = (cStat: 297 | 298, reason: string): SignatureCheck => ({ ok: false, cStat, reason });

function children(el: Element, localName?: string): Element[] {
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (!localName || (n as Element).localName === localName)) out.push(n as Element);
  }
  return out;
}

function one(el: Element | undefined, localName: string): Element | undefined {
  const found = el ? children(el, localName) : [];
  return found.length === 1 ? found[0] : undefined;
}

/**
 * Verifies the signature of `signedElement` (infNFe, infEvento, infInut) inside `documentXml`, whose
 * root is the element's parent (NFe, evento, inutNFe). The profile is the one fixed by
 * xmldsig-core-schema_v1.01.xsd (FACTS 3).
 */
export function checkEnvelopedSignature(documentXml: string, signedElement: string): SignatureCheck {
  return fastCheck(documentXml, signedElement) ?? domCheck(documentXml, signedElement);
}

function compactSignedInfo(uri: string, digest: string, transforms: readonly [string, string], canonical: boolean): string {
  const e = (tag: string, alg: string) => (canonical ? `<${tag} Algorithm="${alg}"></${tag}>` : `<${tag} Algorithm="${alg}"/>`);
  return (
    `<SignedInfo${canonical ? ` xmlns="${XMLDSIG_NAMESPACE}"` : ''}>` +
    e('CanonicalizationMethod', C14N_INCLUSIVE) +
    e('SignatureMethod', RSA_SHA1) +
    `<Reference URI="${uri}"><Transforms>` +
    e('Transform', transforms[0]) +
    e('Transform', transforms[1]) +
    '</Transforms>' +
    e('DigestMethod', DIGEST_SHA1) +
    `<DigestValue>${digest}</DigestValue></Reference></SignedInfo>`
  );
}

/**
 * Fast path for documents written the way every NF-e signer writes them (compact, canonical text):
 * the SignedInfo must equal the profile's text exactly, so its canonical form is known without a DOM.
 * Anything else returns null and goes through the DOM verifier (xml-crypto: ~10 ms per document).
 */
function fastCheck(xml: string, signedElement: string): SignatureCheck | null {
  const signature = sliceElement(xml, 'Signature');
  if (!signature || signature.prefix || !xml.slice(signature.end).trim().startsWith('</')) return null;
  if (!signature.outer.startsWith(`<Signature xmlns="${XMLDSIG_NAMESPACE}">`)) return null;
  let target;
  try {
    target = canonicalElement(xml, signedElement);
  } catch {
    return null;
  }
  const signedInfo = sliceElement(signature.inner, 'SignedInfo');
  const digest = signedInfo && sliceElement(signedInfo.inner, 'DigestValue')?.inner;
  if (!signedInfo || !digest) return null;
  const uri = `#${target.id}`;
  const orders: Array<readonly [string, string]> = [
    [ENVELOPED_SIGNATURE, C14N_INCLUSIVE],
    [C14N_INCLUSIVE, ENVELOPED_SIGNATURE],
  ];
  const order = orders.find((o) => compactSignedInfo(uri, digest, o, false) === signedInfo.outer);
  if (!order) return null;
  const certText = sliceElement(signature.inner, 'X509Certificate')?.inner;
  const valueText = sliceElement(signature.inner, 'SignatureValue')?.inner;
  if (!certText || !valueText) return null;
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(Buffer.from(certText.replace(/\s+/g, ''), 'base64'));
  } catch {
    return fail(298, 'KeyInfo has no readable X509Certificate');
  }
  if (createHash('sha1').update(target.canonical, 'utf8').digest('base64') !== digest) {
    return fail(297, 'digest of the signed element differs');
  }
  const ok = rsaVerify(
    'sha1',
    Buffer.from(compactSignedInfo(uri, digest, order, true), 'utf8'),
    certificate.publicKey,
    Buffer.from(valueText.replace(/\s+/g, ''), 'base64'),
  );
  return ok ? { ok: true, certificate, digestValue: digest } : fail(297, 'signature value differs');
}

function domCheck(documentXml: string, signedElement: string): SignatureCheck {
  let root: Element | null;
  try {
    root = new DOMParser().parseFromString(documentXml, 'text/xml').documentElement;
  } catch {
    return fail(298, 'document cannot be parsed');
  }
  if (!root) return fail(298, 'empty document');
  const target = one(root, signedElement);
  const kids = children(root);
  const signature = kids[kids.length - 1];
  if (!target || !signature || signature.localName !== 'Signature') return fail(298, 'Signature is not the last child');
  // FACTS 3: the xmldsig namespace must be the default one; prefixes are refused.
  if (signature.namespaceURI !== XMLDSIG_NAMESPACE || signature.prefix) return fail(298, 'Signature namespace or prefix');
  const signedInfo = one(signature, 'SignedInfo');
  const reference = one(signedInfo, 'Reference');
  const transforms = children(one(reference, 'Transforms') ?? signature, 'Transform');
  const algs = transforms.map((t) => t.getAttribute('Algorithm'));
  const profileOk =
    one(signedInfo, 'CanonicalizationMethod')?.getAttribute('Algorithm') === C14N_INCLUSIVE &&
    one(signedInfo, 'SignatureMethod')?.getAttribute('Algorithm') === RSA_SHA1 &&
    one(reference, 'DigestMethod')?.getAttribute('Algorithm') === DIGEST_SHA1 &&
    algs.length === 2 &&
    new Set(algs).size === 2 &&
    algs.every((a) => a === ENVELOPED_SIGNATURE || a === C14N_INCLUSIVE) &&
    reference?.getAttribute('URI') === `#${target.getAttribute('Id')}`;
  if (!profileOk) return fail(298, 'signature algorithms, transforms or reference differ from the profile');
  const x509 = one(one(one(signature, 'KeyInfo'), 'X509Data'), 'X509Certificate');
  const digestValue = one(reference, 'DigestValue')?.textContent?.trim() ?? '';
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(Buffer.from((x509?.textContent ?? '').replace(/\s+/g, ''), 'base64'));
  } catch {
    return fail(298, 'KeyInfo has no readable X509Certificate');
  }
  try {
    const verifier = new SignedXml({ publicCert: certificate.toString(), getCertFromKeyInfo: () => null });
    verifier.loadSignature(signature);
    if (!verifier.checkSignature(documentXml)) return fail(297, 'signature value or digest differs');
  } catch (err) {
    return fail(297, `signature does not verify: ${(err as Error).message}`);
  }
  return { ok: true, certificate, digestValue };
}
