// Signature profiles. NF-e/NFC-e: the one profile SEFAZ accepts, fixed by xmldsig-core-schema_v1.01.xsd
// (PL_009/PL_010): inclusive C14N 1.0 without comments, RSA-SHA1, SHA-1 digest, transforms
// enveloped-signature then C14N (docs/fiscal/signature.md). NFS-e: the national package's xmldsig schema is the generic
// W3C one, and real documents carry two profiles (docs/fiscal/nfse-national.md#signature).

export const C14N_INCLUSIVE = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';
export const C14N_EXCLUSIVE = 'http://www.w3.org/2001/10/xml-exc-c14n#';
export const C14N_EXCLUSIVE_WITH_COMMENTS = 'http://www.w3.org/2001/10/xml-exc-c14n#WithComments';
export const RSA_SHA1 = 'http://www.w3.org/2000/09/xmldsig#rsa-sha1';
export const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
export const DIGEST_SHA1 = 'http://www.w3.org/2000/09/xmldsig#sha1';
export const DIGEST_SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';
export const ENVELOPED_SIGNATURE = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';

export interface SignatureProfile {
  /** CanonicalizationMethod, and the second Transform after enveloped-signature. */
  c14n: string;
  signatureMethod: string;
  digestMethod: string;
  /** node:crypto name of the hash behind both methods. */
  hash: 'sha1' | 'sha256';
}

/** RSA-SHA1, SHA-1 digest, inclusive C14N 1.0: SEFAZ's only profile (docs/fiscal/signature.md), and what real DPS carry (docs/fiscal/nfse-national.md#signature). */
export const RSA_SHA1_C14N: SignatureProfile = { c14n: C14N_INCLUSIVE, signatureMethod: RSA_SHA1, digestMethod: DIGEST_SHA1, hash: 'sha1' };

/** RSA-SHA256, SHA-256 digest, exclusive C14N without comments (open-nfse's DPS profile, docs/fiscal/nfse-national.md#signature). */
export const RSA_SHA256_EXC_C14N: SignatureProfile = { c14n: C14N_EXCLUSIVE, signatureMethod: RSA_SHA256, digestMethod: DIGEST_SHA256, hash: 'sha256' };

/** What Sefin Nacional signs its NFS-e with: RSA-SHA256, SHA-256, exclusive C14N WithComments (docs/fiscal/nfse-national.md#signature). */
export const RSA_SHA256_EXC_C14N_WITH_COMMENTS: SignatureProfile = { ...RSA_SHA256_EXC_C14N, c14n: C14N_EXCLUSIVE_WITH_COMMENTS };

/** Elements whose `Id` attribute a Reference may point to in NF-e/NFC-e documents. */
export const SIGNED_ELEMENTS = ['infNFe', 'infEvento', 'infInut'] as const;
export type SignedElementName = (typeof SIGNED_ELEMENTS)[number];
