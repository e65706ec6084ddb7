// node-forge runs every key derivation a PKCS#12 file asks for (the MAC key, the
// PBE/PBKDF2 keys of encrypted certificates and of the shrouded private key) with whatever iteration
// count the file names, before a wrong password can show: 10 million iterations cost 30 s, 2^31 about
// 40 minutes. This walks the structure first, with forge's own decoder and options so it sees what
// forge will see, and refuses any count above PFX_MAX_ITERATIONS before a single iteration runs.
// Real A1 files use a few thousand (OpenSSL and Windows: 2000-2048; Java keytool: 10000).
import forge from 'node-forge';
import { CertificateError } from './certificate-error.js';

export const PFX_MAX_ITERATIONS = 100_000;
/** ContentInfos in the AuthenticatedSafe (real files: 1 or 2). */
export const PFX_MAX_CONTENT_INFOS = 16;
/** SafeBags in all (the key and a certificate chain: about 5). */
export const PFX_MAX_BAGS = 64;
/** Parts that each need their own key derivation besides the MAC (real files: 2). */
export const PFX_MAX_ENCRYPTED_PARTS = 8;
/** Nesting walked below one SafeBag or MAC (counts sit 4 levels down). */
const MAX_DEPTH = 16;
/** An iteration count longer than this is absurd (2^32 and more). */
const MAX_COUNT_BYTES = 4;

const { asn1, pki } = forge;
const OID_DATA = pki.oids.data!;
const OID_ENCRYPTED_DATA = pki.oids.encryptedData!;
const OID_SHROUDED_KEY_BAG = pki.oids.pkcs8ShroudedKeyBag!;

type Part = 'the integrity check (MAC)' | 'the encrypted certificates' | 'the encrypted private key';

// forge's runtime API that its typings leave out (asn1.js validate, pbe.js, pkcs7asn1.js).
const forgePbe = (pki as unknown as { pbe: { getCipher(oid: string, params: forge.asn1.Asn1, password: string): forge.cipher.BlockCipher } }).pbe;
const validate = (asn1 as unknown as { validate(obj: forge.asn1.Asn1, validator: unknown, capture: Record<string, unknown>, errors: unknown[]): boolean })
  .validate;
const encryptedDataValidator = (forge as unknown as { pkcs7: { asn1: { encryptedDataValidator: unknown } } }).pkcs7.asn1.encryptedDataValidator;

const refuse = (message: string): never => {
  throw new CertificateError('too_costly', message);
};

/**
 * Throws CertificateError('too_costly') when the PKCS#12 `pfx` (as decoded by forge, strict DER as
 * parsePfx reads it) asks for more key-derivation work than a real certificate file. Structures it
 * cannot read are left for forge to refuse: forge decodes them with the same options and fails the same way.
 */
export function checkPfxWork(pfx: forge.asn1.Asn1, password: string): void {
  const top = childrenOf(pfx);
  if (!top) return;
  // PFX ::= SEQUENCE { version, authSafe ContentInfo, macData MacData OPTIONAL }: anything after the
  // ContentInfo is where forge looks for the MacData and its iteration count.
  for (const node of top.slice(2)) checkCounts(node, 'the integrity check (MAC)', 0);

  const authSafe = dataOf(top[1]);
  const infos = authSafe === null ? null : childrenOf(decodeLikeForge(authSafe));
  if (!infos) return;
  if (infos.length > PFX_MAX_CONTENT_INFOS) {
    refuse(`The file holds ${infos.length} content blocks; certificate files hold 1 or 2; the limit is ${PFX_MAX_CONTENT_INFOS}.`);
  }
  const tally = { bags: 0, encrypted: 0 };
  const safeContents: string[] = [];
  const encrypted: forge.asn1.Asn1[] = [];
  for (const info of infos) {
    const [type, content] = childrenOf(info) ?? [];
    const oid = oidOf(type);
    if (oid === OID_DATA) {
      const bytes = dataOf(info);
      if (bytes !== null) safeContents.push(bytes);
    } else if (oid === OID_ENCRYPTED_DATA) {
      const encryptedData = childrenOf(content ?? null)?.[0];
      if (!encryptedData) continue;
      countEncrypted(tally);
      // Every INTEGER in the EncryptedData (its version and the PBE/PBKDF2 parameters) is a count or 0.
      checkCounts(encryptedData, 'the encrypted certificates', 0);
      encrypted.push(encryptedData);
    }
  }
  // Plain bags first: their counts are refused without deriving any key.
  for (const bytes of safeContents) checkSafeContents(bytes, tally);
  // Encrypted certificates may hold the shrouded key too; forge would derive its key right after
  // decrypting them, so they are decrypted here (with a count already checked) and walked first.
  for (const encryptedData of encrypted) {
    const plain = decrypt(encryptedData, password);
    if (plain !== null) checkSafeContents(plain, tally);
  }
}

function checkSafeContents(bytes: string, tally: { bags: number; encrypted: number }): void {
  for (const bag of childrenOf(decodeLikeForge(bytes)) ?? []) {
    if (++tally.bags > PFX_MAX_BAGS) refuse(`The file holds more than ${PFX_MAX_BAGS} items; a certificate file holds about 5.`);
    const [type, value] = childrenOf(bag) ?? [];
    if (oidOf(type) !== OID_SHROUDED_KEY_BAG || !value) continue;
    countEncrypted(tally);
    checkCounts(value, 'the encrypted private key', 0);
  }
}

function countEncrypted(tally: { encrypted: number }): void {
  if (++tally.encrypted > PFX_MAX_ENCRYPTED_PARTS) {
    refuse(`The file has more than ${PFX_MAX_ENCRYPTED_PARTS} separately encrypted parts; certificate files have 2.`);
  }
}

/** Refuses any INTEGER under `node` that is negative-looking, absurdly long or above the limit. */
function checkCounts(node: forge.asn1.Asn1, part: Part, depth: number): void {
  if (depth > MAX_DEPTH) refuse(`The file nests ${part} more than ${MAX_DEPTH} levels deep; certificate files nest 4.`);
  if (Array.isArray(node.value)) {
    for (const child of node.value) checkCounts(child, part, depth + 1);
    return;
  }
  if (node.tagClass !== asn1.Class.UNIVERSAL || node.type !== asn1.Type.INTEGER) return;
  // forge reads counts as unsigned big-endian (parseInt of the hex, or ByteBuffer.getInt): so do we.
  const digits = node.value.replace(/^\0+/, '');
  if (digits.length > MAX_COUNT_BYTES) {
    refuse(`The file gives ${part} a ${node.value.length}-byte iteration count; certificates from ICP-Brasil use a few thousand iterations; the limit is ${PFX_MAX_ITERATIONS}.`);
  }
  let count = 0;
  for (let i = 0; i < digits.length; i++) count = count * 256 + digits.charCodeAt(i);
  if (count > PFX_MAX_ITERATIONS) {
    refuse(`The file asks for ${count} key-derivation iterations (${part}); certificates from ICP-Brasil use a few thousand; the limit is ${PFX_MAX_ITERATIONS}.`);
  }
}

/** forge's own decryption of an EncryptedData (pkcs12.js _decryptSafeContents); null when it fails. */
function decrypt(encryptedData: forge.asn1.Asn1, password: string): string | null {
  const capture: Record<string, unknown> = {};
  if (!validate(encryptedData, encryptedDataValidator, capture, [])) return null;
  try {
    const cipher = forgePbe.getCipher(asn1.derToOid(capture.encAlgorithm as string), capture.encParameter as forge.asn1.Asn1, password);
    cipher.update(forge.util.createBuffer(octets(capture.encryptedContentAsn1 as forge.asn1.Asn1)));
    return cipher.finish() ? cipher.output.getBytes() : null;
  } catch {
    return null;
  }
}

/** Decodes BER as forge's PKCS#12 reader does (non-strict); null where forge would throw. */
function decodeLikeForge(bytes: string): forge.asn1.Asn1 | null {
  try {
    return asn1.fromDer(bytes, false);
  } catch {
    return null;
  }
}

function childrenOf(node: forge.asn1.Asn1 | null | undefined): forge.asn1.Asn1[] | null {
  return node && Array.isArray(node.value) ? node.value : null;
}

function oidOf(node: forge.asn1.Asn1 | undefined): string | null {
  if (!node || node.type !== asn1.Type.OID || typeof node.value !== 'string') return null;
  try {
    return asn1.derToOid(node.value);
  } catch {
    return null;
  }
}

/** The OCTET STRING of a `data` ContentInfo ([0] EXPLICIT), joined when BER-chunked as forge joins it. */
function dataOf(contentInfo: forge.asn1.Asn1 | undefined): string | null {
  const content = childrenOf(childrenOf(contentInfo)?.[1])?.[0];
  return content ? octets(content) : null;
}

function octets(node: forge.asn1.Asn1): string {
  return Array.isArray(node.value) ? node.value.map((c) => (typeof c.value === 'string' ? c.value : '')).join('') : node.value;
}
