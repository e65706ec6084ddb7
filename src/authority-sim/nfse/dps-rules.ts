// Anexo I rules on an accepted-by-schema DPS that need no register (docs/fiscal/nfse-national.md#dps, docs/fiscal/nfse-national.md#signature): signature
// (E0717 missing, E0714 invalid - or refused on purpose by the refuse-profile scenario), the signer is
// the provider (E0718), its certificate within its validity (E0715), tpEmit 1 only (E9996), what a provider issuing must not send (E0121, E0128),
// the Id against its fields (E0004), competence not after emission (E0015).
import type { Element } from '@xmldom/xmldom';
import { buildDpsId } from '../../fiscal/xml/nfse/dps-id.js';
import { verifyNfseDocument, type DpsSignatureProfileName } from '../../fiscal/xml/nfse/sign-dps.js';
import { C14N_EXCLUSIVE, RSA_SHA1, RSA_SHA256 } from '../../fiscal/xml/signature/signature-profile.js';
import { cnpjRootMatches } from '../../fiscal/certificate/pfx.js';
import { childOf } from './document-checks.js';
import { checkProviderIdentity } from './dps-party-rules.js';
import type { DpsFacts } from './dps-facts.js';
import { NfseRefusal } from './nfse-wire.js';
import type { X509Certificate } from 'node:crypto';
import { certificateInfo, type CertificateInfo } from '../../fiscal/certificate/certificate-info.js';
import { fastEnvelopedCheck } from '../../fiscal/sefaz/fast-enveloped-check.js';

/** The DPS profile (sign-dps.ts) its Signature uses, from SignatureMethod and CanonicalizationMethod. */
export function dpsProfileOf(dps: Element): DpsSignatureProfileName | null {
  const signedInfo = childOf(childOf(dps, 'Signature') ?? dps, 'SignedInfo');
  const algorithm = (name: string) => (signedInfo && childOf(signedInfo, name)?.getAttribute('Algorithm')) ?? '';
  const method = algorithm('SignatureMethod');
  if (method === RSA_SHA1) return 'rsa-sha1-c14n';
  if (method === RSA_SHA256 && algorithm('CanonicalizationMethod') === C14N_EXCLUSIVE) return 'rsa-sha256-exc-c14n';
  return null;
}

// One provider signs its DPS with one certificate: read it once.
const certificateInfos = new Map<string, CertificateInfo>();
function certificateInfoOf(x509: X509Certificate): CertificateInfo {
  let info = certificateInfos.get(x509.fingerprint256);
  if (!info) {
    info = certificateInfo(x509.raw, x509);
    if (certificateInfos.size >= 256) certificateInfos.clear();
    certificateInfos.set(x509.fingerprint256, info);
  }
  return info;
}

export function checkDpsSignature(xml: string, dps: Element, facts: DpsFacts, refusedProfile: DpsSignatureProfileName | null, now: Date): void {
  // docs/fiscal/nfse-national.md#signature: the XSD makes Signature optional, the web service demands it (E0717).
  if (!childOf(dps, 'Signature')) throw new NfseRefusal('E0717');
  // A DPS signed the way the gateway signs it (RSA-SHA1, inclusive C14N, the Signature last) takes the text
  // path of the SEFAZ side (fiscal/sefaz/fast-enveloped-check.ts, the same verdict without DOM and xml-crypto: most of this
  // simulator's CPU per NFS-e); any other form goes to the general verifier.
  const fast = fastEnvelopedCheck(xml, 'infDPS');
  if (fast && !fast.ok) throw new NfseRefusal('E0714', fast.reason === 'digest' ? 'digest of infDPS differs' : 'signature value differs');
  const verdict = fast?.ok ? { valid: true as const, certificate: certificateInfoOf(fast.certificate) } : verifyNfseDocument(xml);
  if (!verdict.valid) throw new NfseRefusal(verdict.reason === 'no_signature' ? 'E0717' : 'E0714', verdict.detail);
  const profile = dpsProfileOf(dps);
  if (refusedProfile && profile === refusedProfile) throw new NfseRefusal('E0714', `signature profile ${profile} refused (scenario refuse-profile)`);
  // E0718: signed with the issuer's certificate. Sandbox test certificates carry no CNPJ/CPF: only a
  // certificate that names one can contradict the provider (as the SEFAZ side does with 213). The
  // CNPJ root decides, as Anexo II E0812 says for event authors (establishments share one e-CNPJ).
  const cert = verdict.certificate;
  if (facts.prest.CNPJ && cert?.cnpj && !cnpjRootMatches(cert.cnpj, facts.prest.CNPJ)) {
    throw new NfseRefusal('E0718', `certificate CNPJ ${cert.cnpj}, provider ${facts.prest.CNPJ}`);
  }
  if (facts.prest.CPF && cert?.cpf && cert.cpf !== facts.prest.CPF) throw new NfseRefusal('E0718', `certificate CPF ${cert.cpf}, provider ${facts.prest.CPF}`);
  // E0715: the certificate within its validity at the reception (the chain to ICP-Brasil, its revocation
  // and the CRL need Sefin's trust store: the sandbox's test certificates are self-signed).
  const problem = cert && certificateOutOfValidity(cert, now);
  if (problem) throw new NfseRefusal('E0715', problem);
}

/** Why a certificate is not valid at `now` (Anexo I E0715, Anexo II E1983: "Validade do Certificado"), or null. */
export function certificateOutOfValidity(cert: { notBefore: Date; notAfter: Date }, now: Date): string | null {
  if (now.getTime() > cert.notAfter.getTime()) return `certificate expired on ${cert.notAfter.toISOString()}`;
  if (now.getTime() < cert.notBefore.getTime()) return `certificate valid only from ${cert.notBefore.toISOString()}`;
  return null;
}

export function checkDpsContent(f: DpsFacts, dps: Element): void {
  if (f.tpEmit !== '1') throw new NfseRefusal('E9996');
  checkProviderIdentity(dps);
  if (f.prest.hasName) throw new NfseRefusal('E0121');
  if (f.prest.hasAddress) throw new NfseRefusal('E0128');
  const taxId = f.prest.CNPJ ?? f.prest.CPF ?? '';
  let expected: string;
  try {
    expected = buildDpsId({ cLocEmi: f.cLocEmi, inscriptionType: f.prest.CNPJ ? 2 : 1, taxId, serie: f.serie, nDPS: f.nDPS });
  } catch (err) {
    throw new NfseRefusal('E0004', (err as Error).message);
  }
  if (expected !== f.id) throw new NfseRefusal('E0004', `Id ${f.id}, fields give ${expected}`);
  if (f.dCompet > f.dhEmi.slice(0, 10)) throw new NfseRefusal('E0015', `dCompet ${f.dCompet}, dhEmi ${f.dhEmi}`);
}
