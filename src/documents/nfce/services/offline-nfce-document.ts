// The two forms a point of sale hands its offline NFC-e in (POST /v1/nfce/offline), turned into one
// signed document with its QR code, and the checks that only the document itself can answer: XSD,
// signature, QR code (docs/fiscal/signature.md, docs/fiscal/qrcode.md, docs/fiscal/offline-contingency.md). The rules on content are the domain's (offline-nfce.ts).
import { X509Certificate } from 'node:crypto';
import { basicConstraintsCa } from '../../../fiscal/certificate/basic-constraints.js';
import { buildNfceQrCode, nfceUrls, qrVersionFor, verifyNfceQrCode } from '../../../fiscal/qrcode/index.js';
import { cnpjRootMatches, type ParsedCertificate } from '../../../fiscal/certificate/pfx.js';
import { leaf, el, NFE_NAMESPACE } from '../../../fiscal/xml/xml-text.js';
import { signCanonical } from '../../../fiscal/xml/signature/sign.js';
import { nfeXml } from '../../../fiscal/xml/nfe/inf-nfe.js';
import { ufAbbreviation } from '../../../fiscal/sefaz/endpoints.js';
import { ApiError, type ErrorDetail } from '../../../kernel/errors.js';
import type { SchemaPackage } from '../../../fiscal/xml/xsd/validate-xml.js';
import type { OfflineXmlReading } from './offline-xml-reading.js';
import { offlineSchemaOffThread, readOfflineXmlOffThread } from './offline-xml-pool.js';

export interface OfflineDocument {
  xml: string;
  digestValue: string;
  qrCodeUrl: string;
  urlChave: string;
  /** The package in force on its dhEmi, which validated it. */
  schemaPackage: SchemaPackage;
}

const invalid = (details: ErrorDetail[]) =>
  new ApiError('validation_error', `${details[0]!.field} ${details[0]!.message}${details.length > 1 ? ` (and ${details.length - 1} more)` : ''}`, details);

/**
 * The official XSD in force on the document's own dhEmi and environment (schema-packages.ts): PL_009
 * before the reform layout, then PL_010 and its revisions. Answers the package, or its errors.
 */
export async function offlineSchema(xml: string, fieldOf: (path: string) => string): Promise<SchemaPackage> {
  // On the worker thread: 0.1 s for a 990-item NFC-e is too long to hold the event loop.
  const verdict = await offlineSchemaOffThread(xml);
  if ('package' in verdict) return verdict.package;
  throw invalid(verdict.errors.map((e) => ({ field: e.path ? fieldOf(e.path) : 'xml', message: e.message })));
}

/**
 * MOC 4.1 E01 (290: a CA certificate signs nothing) and E02 (291: the certificate is valid when the authority
 * receives the note, i.e. now, as the gateway transmits it at once): the authority would refuse the note.
 */
function signerCertificateProblem(cert: X509Certificate, now: Date | undefined): ErrorDetail | null {
  if (basicConstraintsCa(cert)) return { field: 'xml.Signature', message: 'is made with a CA certificate (basicConstraints cA true); sign with the issuer\'s A1 certificate (the authority answers 290)', rule: 'E01' };
  if (!now) return null;
  if (now.getTime() > Date.parse(cert.validTo) || now.getTime() < Date.parse(cert.validFrom)) {
    return { field: 'xml.Signature', message: `is made with a certificate valid from ${cert.validFrom} to ${cert.validTo}, not now; the authority answers 291 (sign again with a current certificate, or send the sale without Signature to have it signed here)`, rule: 'E02' };
  }
  return null;
}

/** A reading of the XML form (offline-xml-reading.ts) that parsed: its facts and, signed, the signature's verdict. */
export type OfflineReading = Extract<OfflineXmlReading, { ok: true }>;

/**
 * The XML form, signed by the point of sale: the signature is verified and infNFe and Signature are
 * kept byte for byte (they are what was printed and what the authority compares, docs/fiscal/qrcode.md#version-2: the QR
 * code carries the DigestValue). The signer must be a certificate of the issuer's company (CNPJ root,
 * as the authority's cStat 213). A QR code the point of sale wrote must be the document's (what the
 * authority checks, 395-399/464); an absent one is computed here, and with the same DigestValue and
 * CSC it is the text a correct point of sale printed. Every value comes from the reading, i.e. from
 * the one tree the signature was verified on; what is kept is the NFe element alone.
 */
export async function acceptSignedOfflineXml(
  reading: OfflineReading,
  issuer: { uf: string; csc: { id: string; token: string } | null; signer?: ParsedCertificate; now?: Date },
): Promise<OfflineDocument> {
  const f = reading.facts;
  const verified = reading.signature;
  if (!verified) throw invalid([{ field: 'xml.Signature', message: 'is missing' }]);
  if (!verified.valid) throw invalid([{ field: 'xml.Signature', message: `does not verify: ${verified.detail}` }]);
  const signerCert = new X509Certificate(Buffer.from(verified.certificateBase64, 'base64'));
  const certificateProblem = signerCertificateProblem(signerCert, issuer.now);
  if (certificateProblem) throw invalid([certificateProblem]);
  if (!cnpjRootMatches(verified.certificateCnpj ?? undefined, f.emitCnpj) && verified.certificateCnpj) {
    throw invalid([{ field: 'xml.Signature', message: `signed with a certificate of CNPJ ${verified.certificateCnpj}, not of the issuer's company (${f.emitCnpj})` }]);
  }
  const { digestValue } = verified;
  const uf = ufAbbreviation(f.cUF) ?? issuer.uf;
  const tpAmb = f.tpAmb === '1' ? 1 : 2;
  const urls = nfceUrls(uf, tpAmb);
  const publicKey = signerCert.publicKey;
  let out = reading.nfeXml;
  let qrCodeUrl = f.qrCode;
  if (qrCodeUrl) {
    const problem = verifyNfceQrCode(qrCodeUrl, {
      expectedBaseUrl: urls.qrCodeBaseUrl, accessKey: f.accessKey, tpAmb, tpEmis: Number(f.tpEmis), dhEmi: f.dhEmi, vNF: f.vNF, digestValue,
      ...(f.dest ? { dest: f.dest } : {}),
      cscLookup: (id) => (issuer.csc && Number(issuer.csc.id) === Number(id) ? { token: issuer.csc.token } : null),
      publicKey,
    });
    if (problem) throw invalid([{ field: 'xml.infNFeSupl.qrCode', message: `is not this document's (the authority would answer ${problem.cStat}): ${problem.reason}` }]);
  } else {
    const version = qrVersionFor(uf, tpAmb, new Date(f.dhEmi));
    if (version === 2 && !issuer.csc) throw new ApiError('issuer_not_ready', 'The issuer has no CSC to write the QR code with', [{ field: 'csc', message: 'missing' }]);
    if (version === 3 && !issuer.signer) throw new ApiError('issuer_not_ready', 'The issuer has no certificate to sign the QR code with', [{ field: 'certificate', message: 'missing' }]);
    qrCodeUrl = buildNfceQrCode({
      accessKey: f.accessKey, tpAmb, tpEmis: 9, uf, version, dhEmi: f.dhEmi, vNF: f.vNF, digestValue,
      ...(issuer.csc ? { csc: issuer.csc } : {}), ...(f.dest ? { dest: f.dest } : {}), ...(issuer.signer ? { signingKey: issuer.signer } : {}),
    });
    // infNFeSupl sits between infNFe and Signature (docs/fiscal/qrcode.md), outside the signed data: the signature holds.
    // The strict reading leaves one place a start tag "<Signature" can be: NFe's own Signature (infNFe's
    // text cannot hold an unescaped "<", and neither comments nor CDATA are allowed there).
    const at = out.search(/<Signature[\s>]/);
    out = out.slice(0, at) + el('infNFeSupl', leaf('qrCode', qrCodeUrl) + leaf('urlChave', urls.urlChave)) + out.slice(at);
  }
  const urlChave = f.urlChave || urls.urlChave;
  const schemaPackage = await offlineSchema(out, (path) => `xml${path.replace(/^\/NFe\/infNFe/, '').replace(/^\/NFe/, '').replace(/\//g, '.')}`);
  return { xml: out, digestValue, qrCodeUrl, urlChave, schemaPackage };
}

/**
 * The XML form left unsigned by the point of sale: infNFe is signed here with the issuer's certificate
 * (C14N 1.0 of the text as sent, RSA-SHA1, docs/fiscal/signature.md) and the document rewritten as NFe > infNFe (canonical)
 * > infNFeSupl > Signature. The QR code is computed from this signature. A QR code the point of sale
 * already wrote (and printed) must be the very one: QR v2 offline carries the DigestValue, which the point
 * of sale can compute without the key (SHA-1 of the canonical infNFe), so a correct one matches; a
 * different one would be refused by the authority (464), so it is refused here, before anything is kept.
 * The signed document is read again (on the worker) and verified like a signed upload.
 */
export async function signUnsignedOfflineXml(
  reading: OfflineReading,
  issuer: { uf: string; csc: { id: string; token: string } | null; signer: ParsedCertificate },
): Promise<OfflineDocument> {
  const f = reading.facts;
  const canonical = reading.canonicalInfNFe;
  if (!canonical) throw invalid([{ field: 'xml', message: 'is not well-formed XML with one infNFe' }]);
  // SEFAZ refuses namespace prefixes (cStat 404): infNFe sits in the NF-e default namespace.
  const apex = `<infNFe xmlns="${NFE_NAMESPACE}"`;
  if (!canonical.startsWith(apex) || /<[A-Za-z_][\w.-]*:/.test(canonical)) {
    throw invalid([{ field: 'xml', message: `must use the default namespace ${NFE_NAMESPACE} without prefixes (cStat 404)` }]);
  }
  const { signatureXml } = signCanonical(canonical, f.id, issuer.signer);
  // As placed inside NFe, infNFe inherits the namespace instead of declaring it (inf-nfe.ts does the same).
  const embedded = '<infNFe' + canonical.slice(apex.length);
  // The point of sale's printed QR code (and its URL) go into the rewritten document, checked against
  // this signature below; written from the values read, not copied as text from the upload.
  const tpAmb = f.tpAmb === '1' ? 1 : 2;
  const supl = f.qrCode ? { qrCode: f.qrCode, urlChave: f.urlChave ?? nfceUrls(ufAbbreviation(f.cUF) ?? issuer.uf, tpAmb).urlChave } : undefined;
  const signed = await readOfflineXmlOffThread(nfeXml(embedded, supl, signatureXml));
  // Verified like a signed upload: a canonicalization slip would show here, not at the authority.
  if (!signed.ok) throw invalid([{ field: 'xml', message: signed.problem }]);
  return acceptSignedOfflineXml(signed, issuer);
}
