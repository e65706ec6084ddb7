// Loading an A1 certificate (PKCS#12 / .pfx) the way an issuer uploads it. node-forge is used instead of
// Node's OpenSSL 3 because old ICP-Brasil files are still RC2-40/3DES encrypted, which OpenSSL 3 refuses
// without the legacy provider.
import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import forge from 'node-forge';
import { CertificateError } from './certificate-error.js';
import { certificateInfo, type CertificateInfo } from './certificate-info.js';
import { checkPfxWork } from './pfx-limits.js';
import { nonRsaKeyProblem } from './signing-key.js';

export { CertificateError, type CertificateErrorReason } from './certificate-error.js';

export type { CertificateInfo } from './certificate-info.js';

export interface ParsedCertificate extends CertificateInfo {
  privateKey: KeyObject;
  certificateDer: Buffer;
  certificatePem: string;
  /** DER in base64 without line breaks, as written in X509Certificate of an XML signature. */
  certificateBase64: string;
  privateKeyPem: string;
}

const { asn1, pkcs12, pki, util } = forge;
const KEY_BAGS = [pki.oids.pkcs8ShroudedKeyBag!, pki.oids.keyBag!];

/**
 * Parses a PKCS#12 file; throws CertificateError for anything the uploader can fix. Synchronous and
 * CPU-bound (up to PFX_MAX_ITERATIONS per key derivation in pure JS): requests open uploads through
 * openPfx (pfx-worker-pool.ts), which runs this off the event loop with a time limit.
 */
export function parsePfx(pfx: Buffer, password: string): ParsedCertificate {
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    const der = asn1.fromDer(util.createBuffer(pfx.toString('binary')));
    // Iteration counts are checked before forge derives a single key with them.
    checkPfxWork(der, password);
    p12 = pkcs12.pkcs12FromAsn1(der, false, password);
  } catch (err) {
    if (err instanceof CertificateError) throw err;
    const message = err instanceof Error ? err.message : String(err);
    // node-forge checks the MAC (keyed by the password) before decrypting anything.
    if (/MAC could not be verified|Invalid password/i.test(message)) {
      throw new CertificateError('wrong_password', 'The certificate password is wrong.');
    }
    // Files without a MAC only reveal a wrong password when a bag fails to decrypt.
    if (/decrypt|padding|PBE|cipher/i.test(message) && !/Unsupported|unknown/i.test(message)) {
      throw new CertificateError('wrong_password', 'The certificate password is wrong.');
    }
    throw new CertificateError('not_pkcs12', 'The file is not a valid PKCS#12 (.pfx/.p12) certificate.');
  }

  const keyBags = KEY_BAGS.flatMap((type) => p12.getBags({ bagType: type })[type] ?? []);
  const keyBag = keyBags.find((b) => b.key);
  if (!keyBag?.key) {
    // forge reads RSA keys only and keeps any other PrivateKeyInfo as ASN.1: name its type.
    const other = keyBags.map((b) => keyTypeOf(b.asn1)).find((t) => t !== null);
    if (other) throw new CertificateError('unsupported_key', nonRsaKeyProblem(other));
    throw new CertificateError('no_private_key', 'The certificate file does not contain its private key.');
  }
  const certBags = p12.getBags({ bagType: pki.oids.certBag! })[pki.oids.certBag!] ?? [];
  const certs = certBags.map((b) => b.cert).filter((c): c is forge.pki.Certificate => c !== undefined && c !== null);
  const forgeKey = keyBag.key as forge.pki.rsa.PrivateKey;
  // The signer's certificate is the one whose public key matches the private key (chains are often bundled).
  const own = certs.find((c) => {
    const pub = c.publicKey as forge.pki.rsa.PublicKey;
    return pub.n !== undefined && pub.n.equals(forgeKey.n);
  });
  if (!own) {
    throw new CertificateError('no_certificate', 'The file does not contain the certificate of its private key.');
  }

  const privateKey = createPrivateKey(pki.privateKeyToPem(forgeKey));
  const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
  const certificateDer = Buffer.from(asn1.toDer(pki.certificateToAsn1(own)).getBytes(), 'binary');
  const x509 = new X509Certificate(certificateDer);
  return {
    ...certificateInfo(certificateDer, x509),
    // forge decodes UTF8String names that Node's one-line subject would escape.
    commonName: commonNameOf(own),
    privateKey,
    certificateDer,
    certificatePem: x509.toString(),
    certificateBase64: certificateDer.toString('base64'),
    privateKeyPem,
  };
}

/** Key and certificate as PEM strings for `https.request({ key, cert })` mutual TLS; nothing touches disk. */
export function tlsCredentials(cert: Pick<ParsedCertificate, 'privateKeyPem' | 'certificatePem'>): {
  key: string;
  cert: string;
} {
  return { key: cert.privateKeyPem, cert: cert.certificatePem };
}

/** Why a certificate cannot sign at `now`, or null when it is inside its validity period (cStat 291/292 family). */
export function certificateValidityProblem(
  cert: Pick<ParsedCertificate, 'notBefore' | 'notAfter'>,
  now: Date,
): 'expired' | 'not_yet_valid' | null {
  if (now.getTime() > cert.notAfter.getTime()) return 'expired';
  if (now.getTime() < cert.notBefore.getTime()) return 'not_yet_valid';
  return null;
}

/**
 * cStat 213: the CNPJ root (first 8 positions) of the signing certificate must equal the issuer's.
 * Alphanumeric CNPJs (IN RFB 2229/2024) compare case-insensitively after removing punctuation.
 */
export function cnpjRootMatches(certCnpj: string | null | undefined, issuerCnpj: string | null | undefined): boolean {
  const a = normalizeCnpj(certCnpj);
  const b = normalizeCnpj(issuerCnpj);
  return a !== null && b !== null && a.slice(0, 8) === b.slice(0, 8);
}

function normalizeCnpj(value: string | null | undefined): string | null {
  if (!value) return null;
  const clean = value.replace(/[.\-/\s]/g, '').toUpperCase();
  return /^[0-9A-Z]{12}[0-9]{2}$/.test(clean) ? clean : null;
}

/** The type Node's OpenSSL gives a PKCS#8 PrivateKeyInfo (ec, dsa, ed25519...), or null if unreadable. */
function keyTypeOf(privateKeyInfo: forge.asn1.Asn1 | undefined): string | null {
  if (!privateKeyInfo) return null;
  try {
    const der = Buffer.from(asn1.toDer(privateKeyInfo).getBytes(), 'binary');
    return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }).asymmetricKeyType ?? null;
  } catch {
    return null;
  }
}

function commonNameOf(cert: forge.pki.Certificate): string {
  const field = cert.subject.getField('CN') as { value: string; valueTagClass?: number } | null;
  if (!field) return '';
  // forge keeps UTF8String values as raw bytes.
  return field.valueTagClass === asn1.Type.UTF8 ? util.decodeUtf8(field.value) : field.value;
}

