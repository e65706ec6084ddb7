// PKCS#12 files built piece by piece, so a test can choose every iteration count: the MAC,
// the shrouded private key (PBES2/PBKDF2 or PKCS#12 3DES) and encrypted certificates (PKCS#12 3DES,
// the legacy layout of old A1 exports). Counts a test can afford are real (the file opens with its
// password); larger ones are written into the file without being run: the file is then hostile in
// exactly the way describes, since a reader runs the derivation before anything can fail.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';
import { generateSelfSigned } from '../../src/authority-sim/server-certificate.js';

const { asn1, pki, pkcs12 } = forge;
type Asn1 = forge.asn1.Asn1;
// forge's runtime API that its typings leave out (pbe.js, des.js).
const pbe = (pki as unknown as { pbe: { generatePkcs12Key(password: string, salt: forge.util.ByteStringBuffer, id: number, iter: number, n: number): forge.util.ByteStringBuffer } }).pbe;
const des = (forge as unknown as { des: { startEncrypting(key: forge.util.ByteStringBuffer, iv: forge.util.ByteStringBuffer, output: null): forge.cipher.BlockCipher } }).des;
const U = asn1.Class.UNIVERSAL;
const CTX = asn1.Class.CONTEXT_SPECIFIC;
/** Above this a count is written, not run (100,000 SHA-1 iterations take ~0.3 s in forge). */
const AFFORDABLE = 200_000;

export interface PfxRecipe {
  password: string;
  /** The RSA key's size (a fresh key and certificate for `cnpj`; cached per size and CNPJ). */
  bits?: number;
  cnpj?: string;
  /** MacData iterations; default 2048. A bigint writes an INTEGER as long as it needs. */
  macIterations?: number | bigint;
  /** Iterations for the shrouded key; default 2048. */
  keyIterations?: number | bigint;
  /** aes256: PBES2 with PBKDF2 (HMAC-SHA1); 3des: pbeWithSHAAnd3-KeyTripleDES-CBC. */
  keyAlgorithm?: 'aes256' | '3des';
  /** Encrypt the certificates (pbeWithSHAAnd3-KeyTripleDES-CBC) with this count; default: plain. */
  certIterations?: number | bigint;
  /** Put the shrouded key inside the encrypted certificates' SafeContents. */
  keyInsideEncrypted?: boolean;
  /** Replaces the key bag (e.g. ecKeyBag()). */
  keyBag?: Asn1;
  /** More SafeBags after the certificate. */
  extraBags?: Asn1[];
}

const identities = new Map<string, { key: forge.pki.rsa.PrivateKey; certDer: string }>();
function identity(bits: number, cnpj: string) {
  const id = `${bits}:${cnpj}`;
  let found = identities.get(id);
  if (!found) {
    const made = generateSelfSigned({ commonName: `EMPRESA DE TESTE LTDA:${cnpj}`, usage: 'client', bits });
    const cert = pki.certificateFromPem(made.certPem);
    found = { key: pki.privateKeyFromPem(made.keyPem) as forge.pki.rsa.PrivateKey, certDer: asn1.toDer(pki.certificateToAsn1(cert)).getBytes() };
    identities.set(id, found);
  }
  return found;
}

export function buildPfx(r: PfxRecipe): Buffer {
  const { key, certDer } = identity(r.bits ?? 2048, r.cnpj ?? '06157250000116');
  const keyBag = r.keyBag ?? shroudedKeyBag(key, r.password, r.keyIterations ?? 2048, r.keyAlgorithm ?? 'aes256');
  const certBags = [certBag(certDer), ...(r.extraBags ?? [])];
  const contents: Asn1[] = [];
  if (r.certIterations === undefined) {
    contents.push(dataContentInfo(safeContents(certBags)));
  } else {
    contents.push(encryptedContentInfo(safeContents(r.keyInsideEncrypted ? [...certBags, keyBag] : certBags), r.password, r.certIterations));
  }
  if (!(r.certIterations !== undefined && r.keyInsideEncrypted)) contents.push(dataContentInfo(safeContents([keyBag])));
  const authSafe = der(seq(contents));
  return Buffer.from(der(seq([integer(3), dataContentInfo(authSafe), macData(authSafe, r.password, r.macIterations ?? 2048)])), 'binary');
}

/** An unencrypted keyBag holding an EC (P-256) PKCS#8 key, which forge cannot read. */
export function ecKeyBag(): Asn1 {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const pkcs8 = asn1.fromDer((privateKey.export({ type: 'pkcs8', format: 'der' }) as Buffer).toString('binary'));
  return seq([oid(pki.oids.keyBag!), explicit0(pkcs8)]);
}

/** `count` certificate bags of junk-free copies of one certificate (a "chain" that is far too long). */
export function extraCertBags(count: number): Asn1[] {
  const { certDer } = identity(2048, '06157250000116');
  return Array.from({ length: count }, () => certBag(certDer));
}

function shroudedKeyBag(key: forge.pki.rsa.PrivateKey, password: string, count: number | bigint, algorithm: 'aes256' | '3des'): Asn1 {
  const affordable = typeof count === 'number' && count <= AFFORDABLE;
  const epki = pki.encryptPrivateKeyInfo(pki.wrapRsaPrivateKey(pki.privateKeyToAsn1(key)), password, {
    algorithm,
    count: affordable ? count : 7,
  });
  if (!affordable) replaceInteger(epki, 7, count);
  return seq([oid(pki.oids.pkcs8ShroudedKeyBag!), explicit0(epki)]);
}

function certBag(certDer: string): Asn1 {
  return seq([oid(pki.oids.certBag!), explicit0(seq([oid(pki.oids.x509Certificate!), explicit0(octets(certDer))]))]);
}

function encryptedContentInfo(plain: string, password: string, count: number | bigint): Asn1 {
  const salt = randomBytes(8).toString('binary');
  let encrypted: string;
  if (typeof count === 'number' && count <= AFFORDABLE) {
    const bmpSalt = forge.util.createBuffer(salt);
    const key = pbe.generatePkcs12Key(password, bmpSalt, 1, count, 24);
    const iv = pbe.generatePkcs12Key(password, bmpSalt, 2, count, 8);
    const cipher = des.startEncrypting(key, iv, null);
    cipher.update(forge.util.createBuffer(plain));
    cipher.finish();
    encrypted = cipher.output.getBytes();
  } else {
    encrypted = randomBytes(plain.length + 8 - (plain.length % 8)).toString('binary');
  }
  const algorithm = seq([oid(pki.oids['pbeWithSHAAnd3-KeyTripleDES-CBC']!), seq([octets(salt), integer(count)])]);
  const encryptedData = seq([integer(0), seq([oid(pki.oids.data!), algorithm, asn1.create(CTX, 0, false, encrypted)])]);
  return seq([oid(pki.oids.encryptedData!), explicit0(encryptedData)]);
}

function macData(authSafe: string, password: string, count: number | bigint): Asn1 {
  const salt = randomBytes(8).toString('binary');
  let digest = randomBytes(20).toString('binary');
  if (typeof count === 'number' && count <= AFFORDABLE) {
    const macKey = pkcs12.generateKey(password, forge.util.createBuffer(salt), 3, count, 20);
    const hmac = forge.hmac.create();
    hmac.start('sha1', macKey);
    hmac.update(authSafe);
    digest = hmac.digest().getBytes();
  }
  return seq([seq([seq([oid(pki.oids.sha1!), asn1.create(U, asn1.Type.NULL, false, '')]), octets(digest)]), octets(salt), integer(count)]);
}

const der = (node: Asn1) => asn1.toDer(node).getBytes();
const seq = (items: Asn1[]) => asn1.create(U, asn1.Type.SEQUENCE, true, items);
const oid = (dotted: string) => asn1.create(U, asn1.Type.OID, false, asn1.oidToDer(dotted).getBytes());
const octets = (bytes: string) => asn1.create(U, asn1.Type.OCTETSTRING, false, bytes);
const explicit0 = (inner: Asn1) => asn1.create(CTX, 0, true, [inner]);
const safeContents = (bags: Asn1[]) => der(seq(bags));
const dataContentInfo = (bytes: string) => seq([oid(pki.oids.data!), explicit0(octets(bytes))]);

/** A positive DER INTEGER of any size (forge's integerToDer stops at 2^31). */
function integer(n: number | bigint): Asn1 {
  let hex = BigInt(n).toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  if (parseInt(hex.slice(0, 2), 16) >= 0x80) hex = `00${hex}`;
  return asn1.create(U, asn1.Type.INTEGER, false, forge.util.hexToBytes(hex));
}

function replaceInteger(node: Asn1, from: number, to: number | bigint): void {
  if (!Array.isArray(node.value)) return;
  node.value.forEach((child, i, all) => {
    if (child.tagClass === U && child.type === asn1.Type.INTEGER && !Array.isArray(child.value) && asn1.derToInteger(child.value) === from) {
      all[i] = integer(to);
    } else replaceInteger(child, from, to);
  });
}
