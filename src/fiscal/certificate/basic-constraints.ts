import type { X509Certificate } from 'node:crypto';
import forge from 'node-forge';

// MOC 4.1 E01 (290) / A01 (280): a CA certificate (basicConstraints cA true) neither signs nor transmits.
const OID_BASIC_CONSTRAINTS = '2.5.29.19';
// A signer signs thousands of notes with one certificate (signature-check.ts caches the object).
const caOf = new WeakMap<X509Certificate, boolean>();

/**
 * basicConstraints cA, read from the extension itself (node's X509Certificate.ca is OpenSSL's
 * X509_check_ca, which also wants keyCertSign: not the rule's test).
 */
export function basicConstraintsCa(cert: X509Certificate): boolean {
  let ca = caOf.get(cert);
  if (ca === undefined) {
    ca = false;
    try {
      const { asn1 } = forge;
      const tbs = (asn1.fromDer(forge.util.createBuffer(cert.raw.toString('binary'))).value as forge.asn1.Asn1[])[0]!;
      const wrapper = (tbs.value as forge.asn1.Asn1[]).find((n) => n.tagClass === asn1.Class.CONTEXT_SPECIFIC && n.type === 3);
      const extensions = wrapper ? ((wrapper.value as forge.asn1.Asn1[])[0]!.value as forge.asn1.Asn1[]) : [];
      for (const ext of extensions) {
        const parts = ext.value as forge.asn1.Asn1[];
        if (asn1.derToOid(parts[0]!.value as string) !== OID_BASIC_CONSTRAINTS) continue;
        const inner = asn1.fromDer(parts[parts.length - 1]!.value as string).value as forge.asn1.Asn1[];
        const first = inner[0];
        ca = first !== undefined && first.type === asn1.Type.BOOLEAN && (first.value as string) !== '\x00';
      }
    } catch {
      ca = false;
    }
    caOf.set(cert, ca);
  }
  return ca;
}
