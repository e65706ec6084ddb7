// Holder identity in ICP-Brasil certificates (DOC-ICP-04, "campos otherName" of the SubjectAltName):
//   2.16.76.1.3.3 = CNPJ of the legal entity (14 positions; alphanumeric from IN RFB 2229/2024)
//   2.16.76.1.3.1 = e-CPF holder: birth date (ddmmaaaa, 8) + CPF (11) + NIS (11) + RG (15) + RG issuer/UF (6)
// Some test certificates carry the same OIDs as plain extensions instead of SAN otherNames, so the whole
// certificate is searched. Older certificates only put `NAME:CNPJ` (or `NAME:CPF`) in the CN.
import forge from 'node-forge';

const { asn1, util } = forge;
const OID_CNPJ = '2.16.76.1.3.3';
const OID_CPF_HOLDER = '2.16.76.1.3.1';
const STRING_TYPES = new Set<number>([
  asn1.Type.UTF8,
  asn1.Type.PRINTABLESTRING,
  asn1.Type.IA5STRING,
  20, // T61String (TeletexString); missing from forge's Type enum typings
  asn1.Type.OCTETSTRING,
]);

export function icpBrasilIdentity(certificateDer: Buffer, commonName: string): { cnpj: string | null; cpf: string | null } {
  const values = new Map<string, string>();
  collectOidValues(asn1.fromDer(util.createBuffer(certificateDer.toString('binary'))), values, 0);

  const cnpjField = values.get(OID_CNPJ)?.trim().toUpperCase();
  let cnpj = cnpjField && /^[0-9A-Z]{12}[0-9]{2}$/.test(cnpjField) && !/^0+$/.test(cnpjField) ? cnpjField : null;
  const cpfField = values.get(OID_CPF_HOLDER)?.slice(8, 19);
  let cpf = cpfField && /^[0-9]{11}$/.test(cpfField) && !/^0+$/.test(cpfField) ? cpfField : null;

  const tail = /:\s*([0-9A-Za-z]+)\s*$/.exec(commonName)?.[1]?.toUpperCase();
  if (!cnpj && !cpf && tail) {
    if (/^[0-9A-Z]{12}[0-9]{2}$/.test(tail)) cnpj = tail;
    else if (/^[0-9]{11}$/.test(tail)) cpf = tail;
  }
  return { cnpj, cpf };
}

/** Records `OID -> text` for every SEQUENCE shaped like { OID, value } (otherName or extension). */
function collectOidValues(node: forge.asn1.Asn1, out: Map<string, string>, depth: number): void {
  if (depth > 32) return;
  const children = childrenOf(node);
  if (!children) return;
  const [first, second] = children;
  if (first && second && first.type === asn1.Type.OID && first.tagClass === asn1.Class.UNIVERSAL) {
    const oid = asn1.derToOid(first.value as string);
    if ((oid === OID_CNPJ || oid === OID_CPF_HOLDER) && !out.has(oid)) {
      const text = textOf(second, 0);
      if (text !== null) out.set(oid, text);
    }
  }
  for (const child of children) collectOidValues(child, out, depth + 1);
}

/** Constructed nodes, plus OCTET STRINGs that wrap DER (extension values such as the SAN). */
function childrenOf(node: forge.asn1.Asn1): forge.asn1.Asn1[] | null {
  if (Array.isArray(node.value)) return node.value;
  if (node.type === asn1.Type.OCTETSTRING && node.tagClass === asn1.Class.UNIVERSAL) {
    const inner = tryDer(node.value);
    return inner && Array.isArray(inner.value) ? [inner] : null;
  }
  return null;
}

function textOf(node: forge.asn1.Asn1, depth: number): string | null {
  if (depth > 4) return null;
  if (Array.isArray(node.value)) return node.value[0] ? textOf(node.value[0], depth + 1) : null;
  if (node.tagClass === asn1.Class.UNIVERSAL && STRING_TYPES.has(node.type)) {
    if (node.type === asn1.Type.OCTETSTRING) {
      const inner = tryDer(node.value);
      if (inner && inner.tagClass === asn1.Class.UNIVERSAL && STRING_TYPES.has(inner.type)) return textOf(inner, depth + 1);
    }
    return node.type === asn1.Type.UTF8 ? util.decodeUtf8(node.value) : node.value;
  }
  return null;
}

function tryDer(bytes: string): forge.asn1.Asn1 | null {
  if (bytes.length < 2) return null;
  try {
    const options = { strict: true, parseAllBytes: true, decodeBitStrings: false };
    return asn1.fromDer(util.createBuffer(bytes), options as unknown as boolean); // typings lag the runtime API
  } catch {
    return null;
  }
}
