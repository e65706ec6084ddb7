// DpsModel -> signed DPS, and verification of NFS-e documents (DPS, NFS-e) with the profiles FACTS 16.6
// found on real documents. The signature is enveloped on infDPS, Reference URI "#" + Id, the issuer's
// certificate in KeyInfo/X509Data, no namespace prefix (E0717, E0718, E1228); Signature is DPS's last child.
import { signCanonical, type SigningKey } from '../signature/sign.js';
import {
  RSA_SHA1_C14N,
  RSA_SHA256_EXC_C14N,
  RSA_SHA256_EXC_C14N_WITH_COMMENTS,
  type SignatureProfile,
} from '../signature/signature-profile.js';
import { verifyXmlSignature, type XmlSignatureVerification } from '../signature/verify.js';
import type { DpsModel } from './model.js';
import { dpsXml, infDpsTexts } from './write-dps.js';

export type DpsSignatureProfileName = 'rsa-sha1-c14n' | 'rsa-sha256-exc-c14n';

export const DPS_SIGNATURE_PROFILES: Record<DpsSignatureProfileName, SignatureProfile> = {
  'rsa-sha1-c14n': RSA_SHA1_C14N,
  'rsa-sha256-exc-c14n': RSA_SHA256_EXC_C14N,
};

/**
 * Default: RSA-SHA1 + inclusive C14N, the profile of the real DPS that FACTS 16.6 verified as accepted by
 * Sefin (production, São Luís 03/2026, and restricted production, the RJ sample). FACTS records
 * RSA-SHA256 + exclusive C14N as accepted too (open-nfse, [L]); whether Sefin refuses either is unknown.
 */
export const DEFAULT_DPS_SIGNATURE_PROFILE: DpsSignatureProfileName = 'rsa-sha1-c14n';

export interface SignedDps {
  /** `<DPS xmlns="http://www.sped.fazenda.gov.br/nfse" versao="1.01">` with infDPS and Signature. */
  xml: string;
  /** The 45-character DPS Id (the idempotency key for GET /dps/{id}, FACTS 16.3). */
  id: string;
  /** base64 digest of the canonical infDPS. */
  digestValue: string;
}

/**
 * Writes infDPS once in canonical form and signs those bytes. Inclusive and exclusive C14N give the same
 * text here: the only namespace in scope is DPS's default one, which infDPS visibly uses, so one
 * canonical form serves both profiles (the digest differs only by its hash).
 */
export function signDps(model: DpsModel, key: SigningKey, profile: DpsSignatureProfileName = DEFAULT_DPS_SIGNATURE_PROFILE): SignedDps {
  const texts = infDpsTexts(model);
  const { signatureXml, digestValue } = signCanonical(texts.canonical, texts.id, key, DPS_SIGNATURE_PROFILES[profile]);
  return { xml: dpsXml(texts.embedded, signatureXml), id: texts.id, digestValue };
}

/** Every profile an NFS-e document may carry: both DPS profiles and Sefin's own (exclusive C14N WithComments). */
export const NFSE_ACCEPTED_PROFILES: readonly SignatureProfile[] = [RSA_SHA1_C14N, RSA_SHA256_EXC_C14N, RSA_SHA256_EXC_C14N_WITH_COMMENTS];

/** Verifies every DPS/infDPS and NFSe/infNFSe signature of a DPS or NFS-e document (the DPS inside an NFS-e too). */
export function verifyNfseDocument(xml: string): XmlSignatureVerification {
  return verifyXmlSignature(xml, {
    signedElements: [
      ['DPS', 'infDPS'],
      ['NFSe', 'infNFSe'],
    ],
    profiles: NFSE_ACCEPTED_PROFILES,
  });
}
