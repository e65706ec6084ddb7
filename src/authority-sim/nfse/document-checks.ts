// The reception rules every XML data area goes through, in Anexo I's order (docs/fiscal/nfse-national.md#hosts-and-transport): well-formed
// (E1226), no namespace prefix (E1228), a document type Sefin handles (E1242), the schema (E1235,
// complement = libxml2's message). The DOM is returned for the rules that read fields.
import { DOMParser, type Document, type Element } from '@xmldom/xmldom';
import { validateXml } from '../../fiscal/xml/xsd/validate-xml.js';
import { schemaPackageFor } from '../../fiscal/xml/xsd/schema-packages.js';
import { NFSE_NAMESPACE } from '../../fiscal/xml/xml-text.js';
import { NfseRefusal } from './nfse-wire.js';

export interface CheckedDocument {
  /** The document without its XML declaration: ready to embed (NFS-e/DPS, evento/pedRegEvento). */
  text: string;
  doc: Document;
  root: Element;
}

/** True when an element or attribute name carries a prefix (a prefixed namespace declaration is an `xmlns:` attribute). */
function usesPrefix(doc: Document): boolean {
  return Array.from(doc.getElementsByTagName('*') as ArrayLike<Element>).some(
    (e) => Boolean(e.prefix) || Array.from(e.attributes as ArrayLike<{ name: string }>).some((a) => a.name.includes(':')),
  );
}

export function checkDocument(xml: string, root: 'DPS' | 'pedRegEvento', xsd: string): CheckedDocument {
  let fatal: string | undefined;
  let doc: Document | undefined;
  try {
    doc = new DOMParser({ onError: (level, message) => void (level !== 'warning' && (fatal ??= message)) }).parseFromString(xml, 'text/xml');
  } catch (err) {
    fatal ??= (err as Error).message;
  }
  if (fatal || !doc?.documentElement) throw new NfseRefusal('E1226', fatal ?? 'no root element');
  if (usesPrefix(doc)) throw new NfseRefusal('E1228');
  const element = doc.documentElement;
  if (element.localName !== root || element.namespaceURI !== NFSE_NAMESPACE) {
    throw new NfseRefusal('E1242', `expected ${root} in ${NFSE_NAMESPACE}, found ${element.localName ?? '?'}`);
  }
  // The package in force on the document's date (dhEmi of the DPS, dhEvento of the event request).
  const dated = /<(?:dhEmi|dhEvento)>([^<]*)</.exec(xml)?.[1] ?? '';
  const schema = validateXml(xml, { pkg: schemaPackageFor('nfse', dated), file: xsd });
  // The complement: libxml2's message, led by the element's path (the simulator's choice; Sefin's own
  // wording of E1235's complement is not documented).
  const first = schema.errors[0];
  if (!schema.valid) throw new NfseRefusal('E1235', first ? `${first.path ? `${first.path}: ` : ''}${first.message}` : 'schema failure');
  return { text: xml.replace(/^\s*<\?xml[^>]*\?>\s*/, ''), doc, root: element };
}

/** Text of the first descendant `path` (slash-separated local names) under `from`, or undefined. */
export function textAt(from: Element, path: string): string | undefined {
  let node: Element | undefined = from;
  for (const name of path.split('/')) {
    node = node && (Array.from(node.childNodes).find((n) => (n as Element).localName === name) as Element | undefined);
  }
  return node?.textContent ?? undefined;
}

/** The child element `name` of `from`, or undefined. */
export function childOf(from: Element, name: string): Element | undefined {
  return Array.from(from.childNodes).find((n) => (n as Element).localName === name) as Element | undefined;
}
