// Verifying signatures on XML we did not produce (SEFAZ answers, uploaded documents, the simulator's
// input). Canonicalization and digests come from xml-crypto over an @xmldom/xmldom tree; the SEFAZ
// profile is checked first so that a wrong pattern (298) is told apart from a mismatch (297).
import { X509Certificate } from 'node:crypto';
import { DOMParser, type Document, type Element } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { certificateInfo, type CertificateInfo } from '../../certificate/certificate-info.js';
import { checkSignatureProfile, childElements } from './signature-profile-check.js';
import type { SignatureProfile } from './signature-profile.js';

export type SignatureFailure = 'malformed' | 'no_signature' | 'profile' | 'digest' | 'signature' | 'certificate';

export interface XmlSignatureVerification {
  valid: boolean;
  /** profile -> cStat 298 (404 when `detail` names a prefix); digest/signature -> 297. */
  reason?: SignatureFailure;
  detail?: string;
  /** Id of the (first) signed element. */
  signedElementId?: string;
  signedElementIds?: string[];
  certificate?: CertificateInfo;
}

export interface VerifyOptions {
  idAttribute?: string;
  /** [parent, element] pairs that must carry an enveloped signature (default NFe/infNFe, evento/infEvento, inutNFe/infInut). */
  signedElements?: ReadonlyArray<readonly [parent: string, element: string]>;
  /** Accepted signature profiles (default: SEFAZ's RSA-SHA1 + inclusive C14N only, docs/fiscal/signature.md). */
  profiles?: readonly SignatureProfile[];
  /** The text already parsed (strict-document.ts): the elements checked are the ones the caller read. */
  document?: Document;
}

const DSIG = 'http://www.w3.org/2000/09/xmldsig#';
// The taxpayer-signed parts. Answers (retEvento/infEvento, retInutNFe/infInut, protNFe/infProt) may carry
// a SEFAZ signature or none, and are not what a caller asks us to authenticate.
const TAXPAYER_SIGNED: ReadonlyArray<readonly [string, string]> = [
  ['NFe', 'infNFe'],
  ['evento', 'infEvento'],
  ['inutNFe', 'infInut'],
];
const fail = (reason: SignatureFailure, detail: string, extra: Partial<XmlSignatureVerification> = {}): XmlSignatureVerification => ({
  valid: false,
  reason,
  detail,
  ...extra,
});

function parse(xml: string): Document | null {
  let fatal = false;
  try {
    const doc = new DOMParser({ onError: (level) => void (level !== 'warning' && (fatal = true)) }).parseFromString(xml, 'text/xml');
    return fatal || !doc.documentElement ? null : doc;
  } catch {
    return null; // xmldom throws ParseError on fatal errors
  }
}

export function verifyXmlSignature(xml: string, opts: VerifyOptions = {}): XmlSignatureVerification {
  const idAttribute = opts.idAttribute ?? 'Id';
  const pairs = new Set((opts.signedElements ?? TAXPAYER_SIGNED).map(([parent, child]) => `${parent}/${child}`));
  const doc = opts.document ?? parse(xml);
  if (!doc) return fail('malformed', 'the document is not well-formed XML');

  const targets = Array.from(doc.getElementsByTagName('*') as ArrayLike<Element>).filter((e) =>
    pairs.has(`${(e.parentNode as Element | null)?.localName ?? ''}/${e.localName ?? ''}`),
  );
  if (targets.length === 0) return fail('no_signature', `no ${[...pairs].join(', ')} element to verify`);
  const ids: string[] = [];
  let certificate: CertificateInfo | undefined;

  for (const target of targets) {
    const id = target.getAttribute(idAttribute) ?? '';
    const siblings = target.parentNode ? childElements(target.parentNode, 'Signature').filter((s) => s.namespaceURI === DSIG) : [];
    const prefixed = target.parentNode ? childElements(target.parentNode, 'Signature').filter((s) => s.namespaceURI !== DSIG) : [];
    if (prefixed.length > 0) return fail('profile', 'Signature is not in the xmldsig default namespace', { signedElementId: id });
    if (siblings.length === 0) return fail('no_signature', `${target.localName} ${id} is not signed`, { signedElementId: id });
    if (siblings.length > 1) return fail('profile', `${target.localName} ${id} has more than one Signature`, { signedElementId: id });
    const signature = siblings[0]!;
    const profile = checkSignatureProfile(signature, opts.profiles);
    if ('problem' in profile) return fail('profile', profile.problem, { signedElementId: id });
    if (!id || profile.referenceId !== id) return fail('profile', `Reference URI #${profile.referenceId} does not point at ${target.localName} Id "${id}"`, { signedElementId: id });

    let x509: X509Certificate;
    const der = Buffer.from(profile.certificateBase64, 'base64');
    try {
      x509 = new X509Certificate(der);
    } catch {
      return fail('certificate', 'X509Certificate is not a readable certificate', { signedElementId: id });
    }
    certificate ??= certificateInfo(der, x509);

    // xml-crypto already looks up Id/ID/id; naming one of them again would count each element twice.
    const extraId = ['Id', 'ID', 'id'].includes(idAttribute) ? {} : { idAttribute };
    const check = new SignedXml({ publicCert: x509.toString(), ...extraId });
    check.loadSignature(signature as unknown as Parameters<SignedXml['loadSignature']>[0]);
    let ok: boolean;
    try {
      ok = check.checkSignature(xml);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (/signature value .* is incorrect/.test(message)) return fail('signature', 'SignatureValue does not match SignedInfo', { signedElementId: id, certificate });
      return fail('profile', message, { signedElementId: id, certificate });
    }
    if (!ok) return fail('digest', `DigestValue does not match ${target.localName} ${id}`, { signedElementId: id, certificate });
    ids.push(id);
  }
  return { valid: true, signedElementId: ids[0]!, signedElementIds: ids, ...(certificate ? { certificate } : {}) };
}
