// npm run bench:sign - throughput of the NFC-e document engine on one core: build + sign + QR code with
// our fast path, xml-crypto's SignedXml signing the same infNFe, and XSD validation on its own.
// Also exports the realistic 10-item sale it uses (the C14N proof test builds the same document).
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { reformTablesInForce } from '../src/fiscal/reform/reform-tables-in-force.js';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SignedXml } from 'xml-crypto';
import { parsePfx } from '../src/fiscal/certificate/pfx.js';
import { signCanonical } from '../src/fiscal/xml/signature/sign.js';
import { C14N_INCLUSIVE, DIGEST_SHA1, ENVELOPED_SIGNATURE, RSA_SHA1 } from '../src/fiscal/xml/signature/signature-profile.js';
import { validateNfe } from '../src/fiscal/xml/xsd/validate-xml.js';
import { canonicalElement } from '../src/fiscal/xml/signature/canonical-element.js';
import { buildNfce } from '../src/documents/nfce/domain/build-nfce.js';
import type { SigningKey } from '../src/documents/goods/domain/issuer-context.js';
import type { NfceContext } from '../src/documents/nfce/domain/build-nfce.js';
import type { Sale } from '../src/documents/nfce/domain/sale.js';

const PRODUCTS = [
  ['Cafe torrado e moido 500g', '09012100', 18.9, 2],
  ['Acucar refinado 1kg', '17019900', 4.79, 3],
  ['Arroz tipo 1 5kg', '10063021', 27.5, 1],
  ['Feijao carioca 1kg', '07133399', 8.49, 2],
  ['Oleo de soja 900ml', '15079011', 7.99, 2],
  ['Leite UHT integral 1L', '04012010', 5.29, 6],
  ['Macarrao espaguete 500g', '19021900', 4.15, 4],
  ['Biscoito recheado 140g & cia', '19053100', 2.99, 5],
  ['Sabao em po 1kg', '34025000', 12.9, 1],
  ['Papel higienico 12 rolos', '48181000', 19.75, 1],
] as const;

export function tenItemSale(): Sale {
  const items = PRODUCTS.map(([description, ncm, unit_price, quantity], i) => ({
    description, ncm, unit_price, quantity, cfop: '5102', unit: 'UN', csosn: '102', code: `SKU-${1001 + i}`,
  }));
  const total = items.reduce((sum, it) => sum + Math.round(it.quantity * it.unit_price * 100), 0) / 100;
  return { issuer_id: 'iss_bench', external_ref: 'bench-1', items, payment: { method: 'dinheiro', amount: Math.ceil(total) }, approximate_taxes: 12.3 };
}

export function tenItemContext(signingKey: SigningKey, over: Partial<NfceContext> = {}): NfceContext {
  return {
    issuer: {
      cnpj: '06157250000116', ie: '110042490114', razao_social: 'Mercadinho Exemplo Ltda', nome_fantasia: 'Mercadinho', uf: 'SP', crt: 1,
      endereco: { logradouro: 'Rua Augusta', numero: '1500', bairro: 'Consolacao', codigo_municipio: '3550308', municipio: 'Sao Paulo', cep: '01304001' },
    },
    tpAmb: 2, taxReform: false, reformTables: reformTablesInForce(), serie: 1, nNF: 1, emittedAt: new Date('2026-03-10T15:30:00Z'), signingKey,
    csc: { id: '000001', token: 'G8063VRTNDMO886SFNK5LDUDEI24XJ22YIPO' },
    ...over,
  };
}

/**
 * Operations per second of `fn`: best of three rounds of `ms` milliseconds after a warm-up, since the
 * machine is shared and a round can lose its core to other processes.
 */
function rate(fn: (i: number) => unknown, ms = 1000): number {
  let calls = 0;
  for (let i = 0; i < 20; i++) fn(calls++);
  let best = 0;
  for (let round = 0; round < 3; round++) {
    let n = 0;
    const start = performance.now();
    while (performance.now() - start < ms) {
      fn(calls++);
      n++;
    }
    best = Math.max(best, (n * 1000) / (performance.now() - start));
  }
  return best;
}

/** xml-crypto's general-purpose path: parse, canonicalize, digest, sign, serialize. */
function xmlCryptoSigner(key: SigningKey, certificatePem: string): (unsignedNfe: string) => string {
  const privateKey = key.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
  const infNFe = "//*[local-name(.)='infNFe']";
  return (unsignedNfe) => {
    const sig = new SignedXml({
      privateKey, publicCert: certificatePem, canonicalizationAlgorithm: C14N_INCLUSIVE, signatureAlgorithm: RSA_SHA1,
      getKeyInfoContent: () => `<X509Data><X509Certificate>${key.certificateBase64}</X509Certificate></X509Data>`,
    });
    sig.addReference({ xpath: infNFe, transforms: [ENVELOPED_SIGNATURE, C14N_INCLUSIVE], digestAlgorithm: DIGEST_SHA1 });
    sig.computeSignature(unsignedNfe, { location: { reference: infNFe, action: 'after' } });
    return sig.getSignedXml();
  };
}

function benchKey(label: string, key: SigningKey & { certificatePem: string }, bits: number): Record<string, string | number> {
  let nNF = 1;
  const build = () => buildNfce(tenItemSale(), tenItemContext(key, { nNF: nNF++, tpAmb: 1 }));
  const sample = build();
  const { canonical, id } = canonicalElement(sample.xml, 'infNFe');
  const unsigned = sample.xml.replace(/<infNFeSupl>.*<\/infNFeSupl>/, '').replace(/<Signature xmlns=.*<\/Signature>/, '');
  const viaXmlCrypto = xmlCryptoSigner(key, key.certificatePem);
  // Same key, same rules, deterministic RSA: both signers must produce the same SignatureValue.
  const ours = signCanonical(canonical, id, key).signatureXml;
  const theirs = viaXmlCrypto(unsigned);
  const sameValue = /<SignatureValue>([^<]+)/.exec(ours)?.[1] === /<SignatureValue>([^<]+)/.exec(theirs)?.[1];
  if (!sameValue) throw new Error('xml-crypto and our signer disagree on the SignatureValue');

  const buildSignQr = rate(build);
  const signOnly = rate(() => signCanonical(canonical, id, key));
  const xmlCrypto = rate(() => viaXmlCrypto(unsigned));
  return {
    key: `${label} (RSA-${bits})`,
    'build+sign+QR /s': Math.round(buildSignQr),
    'sign only /s': Math.round(signOnly),
    'xml-crypto sign /s': Math.round(xmlCrypto),
    'ratio (build+sign+QR / xml-crypto)': Number((buildSignQr / xmlCrypto).toFixed(1)),
  };
}

function main(): void {
  const certs = resolve(fileURLToPath(import.meta.url), '../../test/fixtures/certs');
  const test4096 = parsePfx(readFileSync(resolve(certs, 'novo_test_certificate.pfx')), 'nfephp');
  // Real A1 certificates are RSA-2048: a fresh 2048-bit key, presented with a test certificate (the
  // benchmark measures signing, nobody verifies against that certificate).
  const fresh = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  // A 512-bit key makes the RSA step negligible: what remains is the builder, digest and QR code.
  const tiny = generateKeyPairSync('rsa', { modulusLength: 512 }).privateKey;
  const rows = [
    benchKey('test certificate novo_test_certificate.pfx', test4096, 4096),
    benchKey('freshly generated key', { ...test4096, privateKey: fresh }, 2048),
    benchKey('diagnostic only: build cost without RSA', { ...test4096, privateKey: tiny }, 512),
  ];
  const doc = buildNfce(tenItemSale(), tenItemContext(test4096, { tpAmb: 1 })).xml;
  if (!validateNfe(doc).valid) throw new Error('benchmark document is not schema-valid');
  const validations = rate(() => validateNfe(doc));
  console.log(`NFC-e document engine, one core (Node ${process.version}), 10-item NFC-e of ${doc.length} bytes, QR v2 online`);
  console.table(rows);
  console.table([{ 'XSD validation (libxml2-wasm, PL_009 nfe_v4.00.xsd) ms/doc': Number((1000 / validations).toFixed(3)), 'validations /s': Math.round(validations) }]);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
