import forge from 'node-forge';
import { generateSelfSigned } from '../../src/authority-sim/server-certificate.js';

/**
 * A self-signed A1-like certificate (PKCS#12) for benchmarks and load tests: RSA-2048 like real
 * ICP-Brasil A1 certificates (the 4,096-bit test certificate makes the RSA operation dominate),
 * carrying the CNPJ in the CN as `NAME:CNPJ`, a form the gateway reads.
 */
export function generateTestPfx(cnpj: string, password: string, bits = 2048): Buffer {
  const id = generateSelfSigned({ commonName: `EMPRESA DE TESTE LTDA:${cnpj}`, usage: 'client', bits });
  const p12 = forge.pkcs12.toPkcs12Asn1(forge.pki.privateKeyFromPem(id.keyPem), [forge.pki.certificateFromPem(id.certPem)], password, {
    algorithm: 'aes256',
  });
  return Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary');
}
