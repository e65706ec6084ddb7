import { svcRejection } from '../../src/authority-sim/svc-rules.js';
import { fish } from '../../src/authority-sim/sim-context.js';
import { X509Certificate } from 'node:crypto';
import { nfeElementsOf, nfeFacts } from '../../src/authority-sim/nfe-facts.js';
import { identityRejection } from '../../src/authority-sim/nfe-rules.js';
import { signerCertificateRejection } from '../../src/authority-sim/certificate-rules.js';
import { authorizationRuleRejection } from '../../src/authority-sim/authorization-rules.js';
import { lotRejection, lotUfRejection, messageRejection } from '../../src/authority-sim/ide-rules.js';
import { checkEnvelopedSignature } from '../../src/authority-sim/signature-check.js';
import { isWellFormed } from '../../src/authority-sim/xml-checks.js';
import { validateXml } from '../../src/fiscal/xml/xsd/validate-xml.js';
import { checkDocument } from '../../src/authority-sim/nfse/document-checks.js';
import { dpsFacts } from '../../src/authority-sim/nfse/dps-facts.js';
import { checkDpsContent, checkDpsSignature } from '../../src/authority-sim/nfse/dps-rules.js';
import { checkDpsRules } from '../../src/authority-sim/nfse/dps-party-rules.js';
import { checkDpsService } from '../../src/authority-sim/nfse/dps-service-rules.js';
import { checkDpsValues } from '../../src/authority-sim/nfse/dps-value-rules.js';
import { checkDpsIbsCbs } from '../../src/authority-sim/nfse/dps-ibscbs-rules.js';
import { checkForeignTrade } from '../../src/authority-sim/nfse/foreign-trade-rules.js';
import { decodeXmlField, gzipB64, NfseRefusal, parseJsonObject } from '../../src/authority-sim/nfse/nfse-wire.js';
import { buildEnviNFe } from '../../src/fiscal/sefaz/request-payloads.js';
import { sliceElement } from '../../src/fiscal/sefaz/xml-slice.js';
import { svcOfTpEmis } from '../../src/fiscal/sefaz/svc-endpoints.js';

// The simulators' verdict on one document, with their own pure rules in their own order
// (authority-sim/authorization-service.ts authorizeOne, authority-sim/nfse/issue-nfse.ts issueNfse),
// minus what needs the authority's records (duplicates, voided numbers: the database).

export interface NfeVerdictOptions {
  /** Reception time: dhEmi plus a few seconds unless a breaker says otherwise (B09-40, 704). */
  now: Date;
  /** The issuer's CSC registered at the authority (NFC-e QR code). */
  csc?: { id: string; token: string };
  /**
   * Check the signature (F01, F02, D02). A document a breaker edited after signing is not signed
   * again: its rules after the signature are then checked as if the signature held.
   */
  signature: boolean;
  /** The lot as sent, when a breaker edits the envelope itself (B02, D01/215). */
  payload?: string;
  /** Who receives it (B22-30, B22-60, B22-70); absent: where the gateway sends it, the SVC of its tpEmis 6/7 or the state. */
  authorizer?: 'state' | 'SVC-AN' | 'SVC-RS';
}

const certificates = new Map<string, X509Certificate>();
function certificateIn(xml: string): X509Certificate {
  const base64 = (sliceElement(xml, 'X509Certificate')?.inner ?? '').replace(/\s+/g, '');
  let cert = certificates.get(base64);
  if (!cert) certificates.set(base64, (cert = new X509Certificate(Buffer.from(base64, 'base64'))));
  return cert;
}

/** cStat of the first rule the NF-e/NFC-e simulator applies that refuses `nfeXml`, or null (authorized). */
export function nfeVerdict(nfeXml: string, o: NfeVerdictOptions): number | null {
  const payload = o.payload ?? buildEnviNFe(nfeXml, 1);
  const message = messageRejection(payload);
  if (message?.cStat === 214) return 214;
  // The lot's schema as before the dating of messages: PL_009, or PL_010 when PL_009 refuses (the real
  // simulator judges each NF-e by its dhEmi, checkNfeLotSchema; the breakers date some notes in 2006).
  const pl009 = validateXml(payload, { pkg: 'PL_009', file: 'enviNFe_v4.00.xsd' });
  const schema = pl009.valid || validateXml(payload, { pkg: 'PL_010', file: 'enviNFe_v4.00.xsd' }).valid ? { valid: true, errors: [] } : pl009;
  if (!schema.valid && !isWellFormed(payload)) return 243;
  // At an SVC: B05 (410) and the activation (114) refuse the lot first, as authorization-service.ts does.
  const svc = o.authorizer && o.authorizer !== 'state' ? svcRejection(fish(payload, 'cUF', '35'), o.authorizer, undefined, 'authorization') : null;
  if (svc) return svc.cStat;
  if (message) return message.cStat;
  if (!schema.valid) return schema.errors.some((e) => e.path?.startsWith('/enviNFe/NFe')) ? 225 : 215;
  const nfes = nfeElementsOf(payload);
  const lot = lotRejection(payload, nfes);
  if (lot) return lot.cStat;
  // Each NF-e of the lot in order (a lot of several only when a breaker builds one): the first refusal.
  const lotCuf = nfeFacts(nfes[0]!).cUF;
  for (const nfe of nfes) {
    const refused = noteVerdict(nfe, o, lotCuf);
    if (refused !== null) return refused;
  }
  return null;
}

function noteVerdict(nfe: string, o: NfeVerdictOptions, lotCuf: string): number | null {
  let signer: X509Certificate;
  let digestValue: string;
  if (o.signature) {
    const signature = checkEnvelopedSignature(nfe, 'infNFe');
    if (!signature.ok) return signature.cStat;
    signer = signature.certificate;
    digestValue = signature.digestValue;
  } else {
    signer = certificateIn(nfe);
    digestValue = sliceElement(nfe, 'DigestValue')?.inner ?? '';
  }
  const facts = nfeFacts(nfe);
  const cscs = new Map(o.csc ? [[String(Number(o.csc.id)), { token: o.csc.token, revoked: false }]] : []);
  const refused =
    signerCertificateRejection(signer, o.now) ??
    identityRejection(facts, signer) ??
    lotUfRejection(facts, lotCuf) ??
    authorizationRuleRejection(facts, { now: o.now, signer, digestValue, cscs, authorizer: o.authorizer ?? svcOfTpEmis(facts.tpEmis) ?? 'state' });
  return refused?.cStat ?? null;
}

export interface NfseVerdictOptions {
  signature: boolean;
  /** The JSON body as posted, when a breaker edits the wire itself (E1225, E1229). */
  body?: string;
  /** The reception's clock (dhProc: E0008, the certificate's validity E0715); the DPS's own dhEmi when absent (received at once). */
  now?: Date;
}

/** E-code of the first Sefin rule the simulator applies that refuses the DPS, or null (authorized). */
export function nfseVerdict(dpsXml: string, o: NfseVerdictOptions): string | null {
  try {
    const body = o.body ?? JSON.stringify({ dpsXmlGZipB64: gzipB64(dpsXml) });
    const xml = decodeXmlField(parseJsonObject(body).dpsXmlGZipB64);
    const checked = checkDocument(xml, 'DPS', 'DPS_v1.01.xsd');
    const facts = dpsFacts(checked.root);
    const now = o.now ?? new Date(Date.parse(facts.dhEmi));
    if (o.signature) checkDpsSignature(xml, checked.root, facts, null, now);
    checkDpsContent(facts, checked.root);
    checkDpsRules(checked.root, facts, now);
    checkDpsService(checked.root, facts);
    checkDpsValues(checked.root, facts);
    checkDpsIbsCbs(checked.root, facts);
    checkForeignTrade(checked.root);
    return null;
  } catch (err) {
    if (err instanceof NfseRefusal) return err.code;
    throw err;
  }
}
