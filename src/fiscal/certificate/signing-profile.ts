import type { X509Certificate } from 'node:crypto';
import forge from 'node-forge';

// MOC 7.0 Anexo I E01 (290, assets/fiscal/rules/moc-anexo-i.json): a signing certificate must be
// X.509 version 3 and its KeyUsage must define "Assinatura Digital" (digitalSignature) and "Não
// Recusa" (nonRepudiation). RFC 5280 4.2.1.3: KeyUsage (2.5.29.15) is a BIT STRING, bit 0
// digitalSignature, bit 1 nonRepudiation (contentCommitment).
const OID_KEY_USAGE = '2.5.29.15';

export interface SigningProfile {
  /** X.509 version as written (1, 2 or 3). */
  version: number;
  /** Null when the certificate has no KeyUsage extension. */
  keyUsage: { digitalSignature: boolean; nonRepudiation: boolean } | null;
}

/** The version and KeyUsage bits E01 looks at, read from the DER itself. */
export function signingProfile(cert: X509Certificate): SigningProfile {
  const { asn1 } = forge;
  const tbs = (asn1.fromDer(forge.util.createBuffer(cert.raw.toString('binary'))).value as forge.asn1.Asn1[])[0]!;
  const fields = tbs.value as forge.asn1.Asn1[];
  // TBSCertificate: version is [0] EXPLICIT INTEGER, absent for v1 (RFC 5280 4.1).
  const versionTag = fields.find((n) => n.tagClass === asn1.Class.CONTEXT_SPECIFIC && n.type === 0);
  const version = versionTag ? (asn1.derToInteger((versionTag.value as forge.asn1.Asn1[])[0]!.value as string) as number) + 1 : 1;
  const wrapper = fields.find((n) => n.tagClass === asn1.Class.CONTEXT_SPECIFIC && n.type === 3);
  const extensions = wrapper ? ((wrapper.value as forge.asn1.Asn1[])[0]!.value as forge.asn1.Asn1[]) : [];
  for (const ext of extensions) {
    const parts = ext.value as forge.asn1.Asn1[];
    if (asn1.derToOid(parts[0]!.value as string) !== OID_KEY_USAGE) continue;
    const bits = asn1.fromDer(parts[parts.length - 1]!.value as string).value as string;
    // BIT STRING content: first byte = unused bits, then the bits, most significant first.
    const first = bits.length > 1 ? bits.charCodeAt(1) : 0;
    return { version, keyUsage: { digitalSignature: (first & 0x80) !== 0, nonRepudiation: (first & 0x40) !== 0 } };
  }
  return { version, keyUsage: null };
}
