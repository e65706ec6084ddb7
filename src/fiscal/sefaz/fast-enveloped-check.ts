// The text path of enveloped-signature verification: for a document written the way every NF-e signer writes it
// (the Signature the parent's last child, in the default namespace, its SignedInfo byte for byte the profile's
// compact text for RSA-SHA1 and inclusive C14N) the canonical forms are known without a DOM (signedInfoText,
// canonicalElement, shared with the signer), which gives the general verifier's verdict (verify.ts) about 25 times
// faster (fiscal/xml/signature/verify.ts stays the judge of every other form). Anything else answers null: the
// caller asks the general verifier. Pure.
import { createHash, verify as rsaVerify, X509Certificate } from 'node:crypto';
import { sliceElement } from './xml-slice.js';
import { XMLDSIG_NAMESPACE } from '../xml/xml-text.js';
import { canonicalElement } from '../xml/signature/canonical-element.js';
import { signedInfoText } from '../xml/signature/sign.js';
import { C14N_INCLUSIVE, ENVELOPED_SIGNATURE } from '../xml/signature/signature-profile.js';

export type FastVerdict = { ok: true; certificate: X509Certificate; digestValue: string } | { ok: false; reason: 'digest' | 'signature' };

const TRANSFORM_ORDERS: ReadonlyArray<readonly [string, string]> = [
  [ENVELOPED_SIGNATURE, C14N_INCLUSIVE],
  [C14N_INCLUSIVE, ENVELOPED_SIGNATURE],
];

export interface SignatureText {
  signedInfo: string;
  digestValue: string;
  certificateBase64: string;
  signatureValue: string;
}

/** The parts of the document's (only, unprefixed) Signature as text; null when it is not there like that. */
export function signatureText(xml: string): SignatureText | null {
  const signature = sliceElement(xml, 'Signature');
  if (!signature || signature.prefix) return null;
  const signedInfo = sliceElement(signature.inner, 'SignedInfo');
  const digestValue = signedInfo && sliceElement(signedInfo.inner, 'DigestValue')?.inner;
  const certificateBase64 = sliceElement(signature.inner, 'X509Certificate')?.inner.replace(/\s+/g, '');
  const signatureValue = sliceElement(signature.inner, 'SignatureValue')?.inner.replace(/\s+/g, '');
  if (!signedInfo || !digestValue || !certificateBase64 || !signatureValue) return null;
  return { signedInfo: signedInfo.outer, digestValue, certificateBase64, signatureValue };
}

// One issuer signs thousands of notes with one certificate: parse it once.
const certificates = new Map<string, X509Certificate>();
export function certificateOf(base64: string): X509Certificate {
  let cert = certificates.get(base64);
  if (!cert) {
    cert = new X509Certificate(Buffer.from(base64, 'base64'));
    if (certificates.size >= 256) certificates.clear();
    certificates.set(base64, cert);
  }
  return cert;
}

/**
 * Text path: the Signature is the parent's last child, in the default namespace, and its SignedInfo
 * equals the profile's compact text byte for byte - so its canonical form is known (signedInfoText)
 * and the signed element's comes from canonicalElement, both shared with the signer. Anything
 * else returns null and goes to the general verifier.
 */
export function fastEnvelopedCheck(xml: string, signedElement: string): FastVerdict | null {
  const signature = sliceElement(xml, 'Signature');
  if (!signature || !signature.outer.startsWith(`<Signature xmlns="${XMLDSIG_NAMESPACE}">`)) return null;
  if (!xml.slice(signature.end).trim().startsWith('</')) return null;
  const parts = signatureText(xml);
  if (!parts) return null;
  let target;
  try {
    target = canonicalElement(xml, signedElement);
  } catch {
    return null;
  }
  const uri = `#${target.id}`;
  const order = TRANSFORM_ORDERS.find((o) => signedInfoText('compact', uri, parts.digestValue, o) === parts.signedInfo);
  if (!order) return null;
  let certificate: X509Certificate;
  try {
    certificate = certificateOf(parts.certificateBase64);
  } catch {
    return null; // the general verifier names the problem
  }
  if (createHash('sha1').update(target.canonical, 'utf8').digest('base64') !== parts.digestValue) {
    return { ok: false, reason: 'digest' };
  }
  const ok = rsaVerify(
    'sha1',
    Buffer.from(signedInfoText('canonical', uri, parts.digestValue, order), 'utf8'),
    certificate.publicKey,
    Buffer.from(parts.signatureValue, 'base64'),
  );
  return ok ? { ok: true, certificate, digestValue: parts.digestValue } : { ok: false, reason: 'signature' };
}

