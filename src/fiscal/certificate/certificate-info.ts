// Descriptive fields of an X.509 certificate (ours from a .pfx, or one found in a signed document).
import { X509Certificate } from 'node:crypto';
import { icpBrasilIdentity } from './icp-brasil.js';
import { repairDoubleUtf8 } from './name-text.js';

export interface CertificateInfo {
  subject: string;
  commonName: string;
  cnpj: string | null;
  cpf: string | null;
  serialNumber: string;
  notBefore: Date;
  notAfter: Date;
  fingerprintSha256: string;
  issuer: string;
}

export function certificateInfo(der: Buffer, x509: X509Certificate = new X509Certificate(der)): CertificateInfo {
  const subjectLines = x509.subject.split('\n').filter(Boolean).map(repairDoubleUtf8);
  const commonName = subjectLines.find((l) => l.startsWith('CN='))?.slice(3) ?? '';
  const identity = icpBrasilIdentity(der, commonName);
  return {
    subject: subjectLines.join(', '),
    commonName,
    cnpj: identity.cnpj,
    cpf: identity.cpf,
    serialNumber: x509.serialNumber,
    notBefore: new Date(x509.validFrom),
    notAfter: new Date(x509.validTo),
    fingerprintSha256: x509.fingerprint256,
    issuer: x509.issuer.split('\n').filter(Boolean).map(repairDoubleUtf8).join(', '),
  };
}
