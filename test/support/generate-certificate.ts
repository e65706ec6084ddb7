import { generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';
import { generateSelfSigned } from '../../src/authority-sim/server-certificate.js';
import { parsePfx } from '../../src/fiscal/certificate/pfx.js';
import type { SigningKey } from '../../src/fiscal/xml/signature/sign.js';

/**
 * A self-signed A1-like certificate (PKCS#12) for benchmarks and load tests: RSA-2048 like real
 * ICP-Brasil A1 certificates (the 4,096-bit test certificate makes the RSA operation dominate),
 * carrying the CNPJ in the CN as `NAME:CNPJ`, a form the gateway reads. Valid from a minute ago for a
 * year unless `o` says otherwise (`ca`: basicConstraints cA true).
 */
export function generateTestPfx(cnpj: string, password: string, bits = 2048, o: { notBefore?: Date; notAfter?: Date; ca?: boolean } = {}): Buffer {
  const id = generateSelfSigned({ commonName: `EMPRESA DE TESTE LTDA:${cnpj}`, usage: 'client', bits, ...o });
  const p12 = forge.pkcs12.toPkcs12Asn1(forge.pki.privateKeyFromPem(id.keyPem), [forge.pki.certificateFromPem(id.certPem)], password, {
    algorithm: 'aes256',
  });
  return Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary');
}

export interface NameAttribute {
  shortName: string;
  value: string;
  /** forge.asn1.Type.UTF8 (12), BMPSTRING (30), PRINTABLESTRING (19, the default)... */
  valueTagClass?: number;
}

/**
 * A self-signed PKCS#12 whose subject and issuer carry exactly these attributes and string types
 * (forge encodes a UTF8String value as UTF-8 and a BMPString value as UTF-16BE from a JS string).
 */
export function generateNamedTestPfx(attributes: NameAttribute[], password: string, notAfter = new Date(Date.now() + 365 * 86_400_000)): Buffer {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  cert.serialNumber = `01${randomBytes(8).toString('hex')}`;
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = notAfter;
  cert.setSubject(attributes);
  cert.setIssuer(attributes);
  cert.setExtensions([{ name: 'extKeyUsage', clientAuth: true }]);
  cert.sign(key, forge.md.sha256.create());
  const p12 = forge.pkcs12.toPkcs12Asn1(key, [cert], password, { algorithm: 'aes256' });
  return Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary');
}

let expired: SigningKey | undefined;
/**
 * A key whose certificate was valid for one minute, ended a second before it was made (Anexo I E0715,
 * Anexo II E1983). Its CN names no CNPJ, so no "signer is the issuer" rule answers before validity does.
 */
export function expiredSigningKey(): SigningKey {
  if (!expired) {
    const parsed = parsePfx(generateNamedTestPfx([{ shortName: 'CN', value: 'EMPRESA DE TESTE LTDA' }], 'x', new Date(Date.now() - 1000)), 'x');
    expired = { privateKey: parsed.privateKey, certificateBase64: parsed.certificateBase64 };
  }
  return expired;
}
