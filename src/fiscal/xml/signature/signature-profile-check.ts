// Structural checks of an enveloped signature against the SEFAZ profile (or the NFS-e profiles given) (xmldsig-core-schema_v1.01.xsd,
// docs/fiscal/signature.md). A document that breaks them is answered with cStat 298 ("assinatura fora do padrão"), or 404
// for a namespace prefix; only a well-formed signature goes on to the digest/RSA checks (297).
import type { Element, Node } from '@xmldom/xmldom';
import { ENVELOPED_SIGNATURE, RSA_SHA1_C14N, type SignatureProfile } from './signature-profile.js';

const DSIG = 'http://www.w3.org/2000/09/xmldsig#';

export function childElements(node: Node, localName?: string): Element[] {
  const out: Element[] = [];
  for (let c = node.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === 1 && (!localName || (c as Element).localName === localName)) out.push(c as Element);
  }
  return out;
}

function only(node: Node, localName: string): Element | null {
  const found = childElements(node, localName);
  return found.length === 1 && found[0]!.namespaceURI === DSIG ? found[0]! : null;
}

export interface ProfileOk {
  referenceId: string;
  certificateBase64: string;
  profile: SignatureProfile;
}

/** Returns the Reference Id, the certificate and the profile used, or a plain-words description of the deviation. */
export function checkSignatureProfile(signature: Element, profiles: readonly SignatureProfile[] = [RSA_SHA1_C14N]): ProfileOk | { problem: string } {
  if (signature.prefix) return { problem: `namespace prefix "${signature.prefix}:" is not allowed on Signature` };
  const signedInfo = only(signature, 'SignedInfo');
  if (!signedInfo) return { problem: 'Signature must hold exactly one SignedInfo' };
  const algorithm = (parent: Element, name: string) => only(parent, name)?.getAttribute('Algorithm') ?? null;
  const single = profiles.length === 1 && profiles[0] === RSA_SHA1_C14N;
  const c14n = algorithm(signedInfo, 'CanonicalizationMethod');
  const method = algorithm(signedInfo, 'SignatureMethod');
  const matching = profiles.filter((p) => p.c14n === c14n);
  if (matching.length === 0) return { problem: single ? 'CanonicalizationMethod must be inclusive C14N 1.0' : `CanonicalizationMethod ${c14n ?? '(none)'} is not accepted` };
  const profile = matching.find((p) => p.signatureMethod === method);
  if (!profile) return { problem: single ? 'SignatureMethod must be rsa-sha1' : `SignatureMethod ${method ?? '(none)'} does not go with ${c14n}` };
  const references = childElements(signedInfo, 'Reference');
  if (references.length !== 1) return { problem: 'SignedInfo must hold exactly one Reference' };
  const reference = references[0]!;
  const uri = reference.getAttribute('URI') ?? '';
  if (!/^#[^#'"\s]+$/.test(uri)) return { problem: 'Reference URI must be "#" followed by the Id of the signed element' };
  const transforms = only(reference, 'Transforms');
  const algorithms = transforms ? childElements(transforms, 'Transform').map((t) => t.getAttribute('Algorithm')) : [];
  const allowed = new Set([ENVELOPED_SIGNATURE, profile.c14n]);
  if (algorithms.length !== 2 || new Set(algorithms).size !== 2 || !algorithms.every((a) => a !== null && allowed.has(a))) {
    return { problem: single ? 'Transforms must be exactly enveloped-signature and inclusive C14N' : `Transforms must be exactly enveloped-signature and ${profile.c14n}` };
  }
  if (algorithm(reference, 'DigestMethod') !== profile.digestMethod) return { problem: single ? 'DigestMethod must be sha1' : `DigestMethod must be ${profile.digestMethod}` };
  if (!only(reference, 'DigestValue')?.textContent?.trim()) return { problem: 'DigestValue is missing' };
  if (!only(signature, 'SignatureValue')?.textContent?.trim()) return { problem: 'SignatureValue is missing' };
  const keyInfo = only(signature, 'KeyInfo');
  const x509Data = keyInfo && childElements(keyInfo).length === 1 ? only(keyInfo, 'X509Data') : null;
  const certs = x509Data ? childElements(x509Data) : [];
  if (certs.length !== 1 || certs[0]!.localName !== 'X509Certificate' || !certs[0]!.textContent?.trim()) {
    return { problem: 'KeyInfo must hold exactly X509Data/X509Certificate' };
  }
  return { referenceId: uri.slice(1), certificateBase64: certs[0]!.textContent.replace(/\s+/g, ''), profile };
}
