// The authority's view of an enveloped signature: profile first (298, 404 for a prefix), then
// digest and value (297). The general verifier (fiscal/xml/signature/verify.ts) decides every case;
// documents written the way every NF-e signer writes them take a text-only path first that gives
// the same verdict ~25x faster (0.26 ms against 7 ms per NFC-e: DOM + xml-crypto), which the
// authority's throughput needs (bench/authority.ts).
import type { X509Certificate } from 'node:crypto';
import { certificateOf, fastEnvelopedCheck, signatureText } from '../fiscal/sefaz/fast-enveloped-check.js';
import { verifyXmlSignature, type XmlSignatureVerification } from '../fiscal/xml/signature/verify.js';
import { generalVerdictOffThread } from './signature-check-pool.js';
import type { PlainSignatureCheck } from './signature-check-messages.js';

export type SignatureCheck =
  | { ok: true; certificate: X509Certificate; digestValue: string }
  | { ok: false; cStat: 297 | 298 | 404; reason: string };

const fail = (cStat: 297 | 298 | 404, reason: string): SignatureCheck => ({ ok: false, cStat, reason });

/**
 * Verifies the signature of `signedElement` (infNFe, infEvento, infInut, infProt) inside
 * `documentXml`, whose root is the element's parent (NFe, evento, inutNFe, protNFe). The profile is
 * the one fixed by xmldsig-core-schema_v1.01.xsd (docs/fiscal/signature.md).
 */
/** The text path (fiscal/sefaz/fast-enveloped-check.ts) with the authority's code for a mismatch (297). */
function fastCheck(xml: string, signedElement: string): SignatureCheck | null {
  const v = fastEnvelopedCheck(xml, signedElement);
  if (!v) return null;
  return v.ok ? v : fail(297, v.reason === 'digest' ? 'digest of the signed element differs' : 'signature value differs');
}

export function checkEnvelopedSignature(documentXml: string, signedElement: string): SignatureCheck {
  return fastCheck(documentXml, signedElement) ?? generalCheck(documentXml, signedElement);
}

/**
 * The same verdict with the text path here and the general verifier (DOM + xml-crypto: 7 ms per
 * NFC-e, seconds for 990 items) on a worker thread (signature-check-pool.ts), so one tenant's large
 * document does not hold the shared sandbox process.
 */
export async function checkEnvelopedSignatureOffLoop(documentXml: string, signedElement: string): Promise<SignatureCheck> {
  return fastCheck(documentXml, signedElement) ?? fromPlain(await generalVerdictOffThread(documentXml, signedElement));
}

export function generalVerdict(xml: string, signedElement: string): PlainSignatureCheck {
  const root = /^\s*(?:<\?xml[^>]*\?>\s*)?<(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)/.exec(xml)?.[1] ?? '';
  const verdict = verifyXmlSignature(xml, { signedElements: [[root, signedElement]] });
  if (!verdict.valid) return { ok: false, cStat: cStatOf(verdict), reason: verdict.detail ?? verdict.reason ?? 'signature does not verify' };
  const parts = signatureText(xml);
  if (!parts) return { ok: false, cStat: 298, reason: 'Signature cannot be read' };
  return { ok: true, certificateBase64: parts.certificateBase64, digestValue: parts.digestValue };
}

/** A plain verdict with its certificate parsed (once per certificate, in this thread). */
export function fromPlain(v: PlainSignatureCheck): SignatureCheck {
  return v.ok ? { ok: true, certificate: certificateOf(v.certificateBase64), digestValue: v.digestValue } : v;
}

function generalCheck(xml: string, signedElement: string): SignatureCheck {
  return fromPlain(generalVerdict(xml, signedElement));
}

/** verify.ts reasons -> the authority's codes: 297 mismatch, 404 namespace prefix, 298 anything off the profile. */
function cStatOf(v: XmlSignatureVerification): 297 | 298 | 404 {
  if (v.reason === 'digest' || v.reason === 'signature') return 297;
  if (v.reason === 'profile' && /prefix|default namespace/i.test(v.detail ?? '')) return 404;
  return 298;
}
