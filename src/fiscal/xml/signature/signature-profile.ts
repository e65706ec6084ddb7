// The one signature profile SEFAZ accepts, fixed by xmldsig-core-schema_v1.01.xsd (PL_009/PL_010):
// inclusive C14N 1.0 without comments, RSA-SHA1, SHA-1 digest, transforms enveloped-signature then C14N.
export const C14N_INCLUSIVE = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';
export const C14N_EXCLUSIVE = 'http://www.w3.org/2001/10/xml-exc-c14n#';
export const RSA_SHA1 = 'http://www.w3.org/2000/09/xmldsig#rsa-sha1';
export const DIGEST_SHA1 = 'http://www.w3.org/2000/09/xmldsig#sha1';
export const ENVELOPED_SIGNATURE = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';

/** Elements whose `Id` attribute a Reference may point to in NF-e/NFC-e documents. */
export const SIGNED_ELEMENTS = ['infNFe', 'infEvento', 'infInut'] as const;
export type SignedElementName = (typeof SIGNED_ELEMENTS)[number];
