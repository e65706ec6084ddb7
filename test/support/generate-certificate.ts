import { generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';

/**
 * A self-signed A1-like certificate (PKCS#12) for benchmarks and load tests: RSA-2048 like real
 * ICP-Brasil A1 certificates (the 4,096-bit test certificate makes the RSA operation dominate),
 * carrying the CNPJ in the CN as `NAME:CNPJ`, a form the gateway reads.
 */
export function generateTestPfx(cnpj: string, password: string, bits = 2048): Buffer {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  cert.serialNumber = '01' + randomBytes(8).toString('hex');
  const now = new Date();
  cert.validity.notBefore = new Date(now.getTime() - 86_400_000);
  cert.validity.notAfter = new Date(now.getTime() + 365 * 86_400_000);
  const attrs = [
    { name: 'commonName', value: `EMPRESA DE TESTE LTDA:${cnpj}` },
    { name: 'countryName', value: 'BR' },
    { name: 'organizationName', value: 'ICP-Brasil (teste)' },
  ];
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  const forgeKey = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
  cert.sign(forgeKey, forge.md.sha256.create());
  const p12 = forge.pkcs12.toPkcs12Asn1(forgeKey, [cert], password, { algorithm: 'aes256' });
  return Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary');
}
