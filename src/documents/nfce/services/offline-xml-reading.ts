// What the intake reads of the XML a point of sale sends (POST /v1/nfce/offline):
// one strict parse (fiscal/xml/strict-document.ts), then from that one tree the facts, the signature's
// verdict with its DigestValue and certificate, or, unsigned, the canonical infNFe the gateway signs.
// Runs on a worker thread (offline-xml-pool.ts): a 990-item NFC-e is about 0.7 MB of XML, and parsing,
// canonicalizing and hashing it (seconds), or checking it against the XSD (0.1 s), would otherwise hold
// every other request. The XSD check of the document as it will be kept is here too.
import type { Element } from '@xmldom/xmldom';
import { canonicalOf } from '../../../fiscal/xml/signature/canonicalize-foreign.js';
import { verifyXmlSignature } from '../../../fiscal/xml/signature/verify.js';
import { parseStrictDocument } from '../../../fiscal/xml/strict-document.js';
import { validateNfeOfItsDate, type SchemaError, type SchemaPackage } from '../../../fiscal/xml/xsd/validate-xml.js';
import { OFFLINE_XML_RULES, offlineFactsOf, type OfflineNfceFacts } from '../domain/offline-nfce.js';

export type OfflineSignatureReading =
  | { valid: true; certificateCnpj: string | null; digestValue: string; certificateBase64: string }
  | { valid: false; detail: string };

export type OfflineXmlReading =
  | {
      ok: true;
      facts: OfflineNfceFacts;
      /** The NFe element's own text, as sent (the XML declaration and surrounding whitespace cut). */
      nfeXml: string;
      /** Signed: the verdict. Unsigned: null. */
      signature: OfflineSignatureReading | null;
      /** Unsigned: infNFe in C14N 1.0, what the gateway signs. */
      canonicalInfNFe: string | null;
    }
  | { ok: false; problem: string };

const child = (parent: Element | null, name: string): Element | null => {
  for (let c = parent?.firstChild; c; c = c.nextSibling) if (c.nodeType === 1 && (c as Element).localName === name) return c as Element;
  return null;
};
const path = (from: Element | null, ...names: string[]) => names.reduce<Element | null>((at, n) => child(at, n), from);

/** `verify: false` for a document the gateway signed itself a moment ago (the sale JSON form): its facts only. */
export function readOfflineXml(xml: string, o: { verify?: boolean } = {}): OfflineXmlReading {
  const parsed = parseStrictDocument(xml, OFFLINE_XML_RULES);
  if (!parsed.ok) return parsed;
  const facts = offlineFactsOf(parsed.root);
  if (!facts) return { ok: false, problem: 'is not an NFe document with one infNFe, then infNFeSupl and Signature (the NFC-e as signed and printed)' };
  const infNFe = child(parsed.root, 'infNFe')!;
  // The signature's Reference finds its element by Id: no other element may answer to infNFe's.
  const elements = parsed.document.getElementsByTagName('*');
  for (let i = 0; i < elements.length; i++) {
    const e = elements.item(i)!;
    if (e !== infNFe && ['Id', 'ID', 'id'].some((a) => e.getAttribute(a) === facts.id)) return { ok: false, problem: `has another element (${e.localName}) with the Id ${facts.id} of infNFe` };
  }
  if (!facts.signed) return { ok: true, facts, nfeXml: parsed.rootXml, signature: null, canonicalInfNFe: canonicalOf(infNFe) };
  if (o.verify === false) return { ok: true, facts, nfeXml: parsed.rootXml, signature: null, canonicalInfNFe: null };

  // The signature is checked on the tree the facts came from (the same text, parsed once here).
  const verified = verifyXmlSignature(parsed.rootXml, { signedElements: [['NFe', 'infNFe']], document: parsed.document });
  if (!verified.valid) return { ok: true, facts, nfeXml: parsed.rootXml, signature: { valid: false, detail: verified.detail ?? verified.reason ?? 'invalid' }, canonicalInfNFe: null };
  const element = child(parsed.root, 'Signature');
  const signature: OfflineSignatureReading = {
    valid: true,
    certificateCnpj: verified.certificate?.cnpj ?? null,
    digestValue: (path(element, 'SignedInfo', 'Reference', 'DigestValue')?.textContent ?? '').trim(),
    certificateBase64: (path(element, 'KeyInfo', 'X509Data', 'X509Certificate')?.textContent ?? '').replace(/\s+/g, ''),
  };
  return { ok: true, facts, nfeXml: parsed.rootXml, signature, canonicalInfNFe: null };
}

/** The package in force on the document's dhEmi (schema-packages.ts) when it is valid under it, or its errors (offline-nfce-document.ts). */
export type OfflineSchemaVerdict = { package: SchemaPackage } | { errors: SchemaError[] };

export function offlineSchemaOf(xml: string): OfflineSchemaVerdict {
  const schema = validateNfeOfItsDate(xml);
  return schema.valid ? { package: schema.pkg } : { errors: schema.errors.slice(0, 20) };
}
