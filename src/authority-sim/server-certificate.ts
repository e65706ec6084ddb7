import { createPrivateKey, generateKeyPairSync, randomBytes, X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import forge from 'node-forge';

/** The simulator's identity: TLS server certificate and the key it signs protocols with. */
export interface SimulatorIdentity {
  keyPem: string;
  certPem: string;
  /** What a client must trust: the certificate is self-signed, so it is its own CA. */
  caPem: string;
}

/**
 * A self-signed certificate for 127.0.0.1/localhost, valid for a year. The RSA key comes from
 * node:crypto (forge's pure-JS keygen takes seconds); forge writes the X.509 with the SANs.
 */
export function generateSimulatorIdentity(commonName = 'Authority Simulator (SEFAZ mock)'): SimulatorIdentity {
  return generateSelfSigned({ commonName, usage: 'server' });
}

/**
 * A self-signed identity: the simulator's server certificate, or a client certificate for load
 * drivers (bench/authority.ts: RSA-2048 like real A1 certificates; TLS servers demand the clientAuth
 * extended key usage of a client).
 */
export function generateSelfSigned(o: { commonName: string; usage: 'server' | 'client'; bits?: number; notBefore?: Date; notAfter?: Date; ca?: boolean }): SimulatorIdentity {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: o.bits ?? 2048 });
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  // A positive serial in minimal DER: first byte 0x01-0x7f. ('0' + random hex gave a leading 0x00
  // byte once in 256 certificates, which OpenSSL refuses as "illegal padding".)
  const serial = randomBytes(16);
  serial[0] = (serial[0]! & 0x7f) | 0x01;
  cert.serialNumber = serial.toString('hex');
  const now = new Date();
  cert.validity.notBefore = o.notBefore ?? new Date(now.getTime() - 60_000);
  cert.validity.notAfter = o.notAfter ?? new Date(now.getTime() + 365 * 24 * 3600_000);
  const attrs = [
    { name: 'commonName', value: o.commonName },
    { name: 'organizationName', value: 'fiscal-gateway sandbox' },
    { name: 'countryName', value: 'BR' },
  ];
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  const server = o.usage === 'server';
  cert.setExtensions([
    { name: 'basicConstraints', cA: o.ca ?? server },
    { name: 'keyUsage', keyCertSign: server, digitalSignature: true, keyEncipherment: true },
    { name: 'extKeyUsage', serverAuth: server, clientAuth: !server },
    ...(server
      ? [
          {
            name: 'subjectAltName',
            altNames: [
              { type: 2, value: 'localhost' },
              { type: 7, ip: '127.0.0.1' },
            ],
          },
        ]
      : []),
  ]);
  cert.sign(forge.pki.privateKeyFromPem(keyPem), forge.md.sha256.create());
  const certPem = forge.pki.certificateToPem(cert);
  return { keyPem, certPem, caPem: certPem };
}

/** The base64 DER of a PEM certificate (X509Certificate of an XML signature's KeyInfo). */
export function certificateBase64(certPem: string): string {
  return new X509Certificate(certPem).raw.toString('base64');
}

export function privateKeyObject(keyPem: string) {
  return createPrivateKey(keyPem);
}

/**
 * The standalone simulator's identity, kept in `dir` (server-key.pem mode 0600, ca.pem): gateways
 * trust ca.pem through SIM_CA_FILE, so a restarted simulator must present the same certificate.
 * A new one is made when none is there or it expires within a day.
 */
export function loadOrCreateIdentity(dir: string): { identity: SimulatorIdentity; caFile: string } {
  mkdirSync(dir, { recursive: true });
  const keyFile = join(dir, 'server-key.pem');
  const caFile = join(dir, 'ca.pem');
  if (existsSync(keyFile) && existsSync(caFile)) {
    const certPem = readFileSync(caFile, 'utf8');
    if (Date.parse(new X509Certificate(certPem).validTo) > Date.now() + 24 * 3600_000) {
      return { identity: { keyPem: readFileSync(keyFile, 'utf8'), certPem, caPem: certPem }, caFile };
    }
  }
  const identity = generateSimulatorIdentity();
  writeFileSync(keyFile, identity.keyPem, { mode: 0o600 });
  writeFileSync(caFile, identity.caPem);
  return { identity, caFile };
}
