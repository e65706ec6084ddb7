// DpsModel -> signed DPS, and verification of NFS-e documents (DPS, NFS-e, event request, event) with the profiles docs/fiscal/nfse-national.md#signature
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
import type { NfseSignableTexts } from './nfse-texts.js';
import { dpsXml, infDpsTexts } from './write-dps.js';

export type DpsSignatureProfileName = 'rsa-sha1-c14n' | 'rsa-sha256-exc-c14n';

export const DPS_SIGNATURE_PROFILES: Record<DpsSignatureProfileName, SignatureProfile> = {
  'rsa-sha1-c14n': RSA_SHA1_C14N,
  'rsa-sha256-exc-c14n': RSA_SHA256_EXC_C14N,
};

/**
 * Default: RSA-SHA1 + inclusive C14N, the profile of the real DPS that docs/fiscal/nfse-national.md#signature verified as accepted by
 * Sefin (production, São Luís 03/2026, and restricted production, the RJ sample). docs/fiscal/README.md records
 * RSA-SHA256 + exclusive C14N as accepted too (open-nfse, [L]); whether Sefin refuses either is unknown.
 */
export const DEFAULT_DPS_SIGNATURE_PROFILE: DpsSignatureProfileName = 'rsa-sha1-c14n';

/** A signed NFS-e document (DPS, pedRegEvento): its text, the signed element's Id, the digest of its canonical form. */
export interface SignedNfseXml {
  xml: string;
  id: string;
  digestValue: string;
}

/** `<DPS xmlns="http://www.sped.fazenda.gov.br/nfse" versao="1.01">` with infDPS and Signature; `id` is the 45-character DPS Id (the idempotency key for GET /dps/{id}, docs/fiscal/nfse-national.md#dps). */
export type SignedDps = SignedNfseXml;

/** Signs the canonical text of an element and places the Signature as its root's last child (`wrap`). */
export function signNfseTexts(texts: NfseSignableTexts, wrap: (embedded: string, signatureXml: string) => string, key: SigningKey, profile: DpsSignatureProfileName): SignedNfseXml {
  const { signatureXml, digestValue } = signCanonical(texts.canonical, texts.id, key, DPS_SIGNATURE_PROFILES[profile]);
  return { xml: wrap(texts.embedded, signatureXml), id: texts.id, digestValue };
}

/**
 * Writes infDPS once in canonical form and signs those bytes. Inclusive and exclusive C14N give the same
 * text here: the only namespace in scope is DPS's default one, which infDPS visibly uses, so one
 * canonical form serves both profiles (the digest differs only by its hash).
 */
export function signDps(model: DpsModel, key: SigningKey, profile: DpsSignatureProfileName = DEFAULT_DPS_SIGNATURE_PROFILE): SignedDps {
  return signNfseTexts(infDpsTexts(model), dpsXml, key, profile);
}

/** Every profile an NFS-e document may carry: both DPS profiles and Sefin's own (exclusive C14N WithComments). */
export const NFSE_ACCEPTED_PROFILES: readonly SignatureProfile[] = [RSA_SHA1_C14N, RSA_SHA256_EXC_C14N, RSA_SHA256_EXC_C14N_WITH_COMMENTS];

/**
 * Verifies every signature of an NFS-e document: DPS/infDPS and NFSe/infNFSe (the DPS inside an NFS-e too),
 * pedRegEvento/infPedReg and Sefin's evento/infEvento (the request inside the event too, docs/fiscal/nfse-national.md#events).
 * Every such element present must be signed: an unsigned request inside an event (a manifestation, whose
 * signature Anexo II does not demand) fails as `no_signature`.
 */
export function verifyNfseDocument(xml: string): XmlSignatureVerification {
  return verifyXmlSignature(xml, {
    signedElements: [
      ['DPS', 'infDPS'],
      ['NFSe', 'infNFSe'],
      ['pedRegEvento', 'infPedReg'],
      ['evento', 'infEvento'],
    ],
    profiles: NFSE_ACCEPTED_PROFILES,
  });
}
