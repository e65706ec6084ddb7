import type { X509Certificate } from 'node:crypto';
import { basicConstraintsCa } from '../fiscal/certificate/basic-constraints.js';
import { motivo } from './cstat-messages.js';
import type { Rejection } from './nfe-rules.js';

// MOC 7.0 Anexo I, section 4.1 group E: the signing certificate (the X509Certificate of the XML
// signature), checked after the signature is found and before its value (group F) and the content.
// What the sandbox cannot check, and why (docs/fiscal/rule-table.md, "Signing certificate"):
// - E01 (290) version 3 and the key usages digitalSignature + nonRepudiation: the sandbox signs with
//   test certificates (test/fixtures/certs/novo_test_certificate.pfx is an X.509 v1 certificate without
//   extensions); only its "not a CA certificate" part is checked here.
// - E03 (292) CNPJ/CPF in the ICP-Brasil otherName: the sandbox accepts test certificates without it
//   (platform/issuers/upload-certificate.ts warns; production refuses them at upload).
// - E04 (293), E07 (295) chain to ICP-Brasil, E05 (296) CRL, E06 (294) revoked: test certificates are
//   self-signed, outside ICP-Brasil, and name no CRL.

/**
 * E01 (290): a CA certificate (basicConstraints cA true) signs no document. E02 (291): the
 * certificate is valid (notBefore..notAfter) at the reception.
 */
export function signerCertificateRejection(cert: X509Certificate, now: Date): Rejection | null {
  if (basicConstraintsCa(cert)) return { cStat: 290, xMotivo: motivo(290), detail: 'the signing certificate is a CA certificate (basicConstraints cA true)' };
  const from = Date.parse(cert.validFrom);
  const to = Date.parse(cert.validTo);
  if (now.getTime() < from || now.getTime() > to) {
    return { cStat: 291, xMotivo: motivo(291), detail: `the signing certificate is valid from ${cert.validFrom} to ${cert.validTo}, not at ${now.toISOString()}` };
  }
  return null;
}
