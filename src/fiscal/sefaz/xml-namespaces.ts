import { decodeEntities } from './xml-slice.js';

/**
 * A namespace-aware reader of element tags, in document order, for SOAP envelopes. XML Namespaces
 * 1.0 section 6: a prefixed name and an unprefixed one under a default declaration name the same
 * element when they resolve to the same URI, and a declaration reaches every descendant; so the
 * envelope's elements are matched by (namespace URI, local name), never by their spelling. It reads
 * tags only: text between them is skipped, and the caller slices it out of the original string so
 * signed content keeps its bytes. Linear in the input (sticky expressions, no backtracking across tags).
 */

export const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';

export interface ElementTag {
  kind: 'start' | 'end';
  /** The prefix as written ('' when none). */
  prefix: string;
  localName: string;
  /** The URI the prefix (or the default declaration) resolves to; '' = no namespace. */
  namespace: string;
  /** 1 for the document element. */
  depth: number;
  /** Index of `<`. */
  start: number;
  /** Index just after `>`. */
  end: number;
  /** `<x/>`: one 'start' tag and no 'end' tag is reported. */
  selfClosing: boolean;
  /** Prefix ('' = default) -> URI bindings in scope at this element, its own declarations included. */
  scope: ReadonlyMap<string, string>;
}

export class XmlScanError extends Error {}

interface Scope {
  qname: string;
  namespaces: Map<string, string>;
}

const NAME = /[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?/y;
const ATTRIBUTE = /\s+([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/y;
const TAG_CLOSE = /\s*(\/?)>/y;
const END_TAG = /<\/([A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?)\s*>/y;

function match(re: RegExp, xml: string, at: number): RegExpExecArray | null {
  re.lastIndex = at;
  return re.exec(xml);
}

function skipPast(xml: string, at: number, terminator: string, what: string): number {
  const i = xml.indexOf(terminator, at);
  if (i < 0) throw new XmlScanError(`unterminated ${what}`);
  return i + terminator.length;
}

/** Every element tag of `xml` in order; throws XmlScanError where the markup is not well-formed. */
export function* elementTags(xml: string): Generator<ElementTag> {
  const open: Scope[] = [];
  let at = 0;
  for (let lt = xml.indexOf('<', at); lt >= 0; lt = xml.indexOf('<', at)) {
    if (xml.startsWith('<!--', lt)) at = skipPast(xml, lt + 4, '-->', 'comment');
    else if (xml.startsWith('<![CDATA[', lt)) at = skipPast(xml, lt + 9, ']]>', 'CDATA section');
    else if (xml.startsWith('<?', lt)) at = skipPast(xml, lt + 2, '?>', 'processing instruction');
    // SOAP 1.1 section 3 and SOAP 1.2 part 1 section 5: a SOAP message carries no DTD.
    else if (xml.startsWith('<!', lt)) throw new XmlScanError('a SOAP message must not contain a document type declaration');
    else if (xml[lt + 1] === '/') {
      const m = match(END_TAG, xml, lt);
      const top = open.pop();
      if (!m || !top || m[1] !== top.qname) throw new XmlScanError(`end tag at ${lt} does not close ${top?.qname ?? 'any element'}`);
      at = lt + m[0].length;
      const [prefix, localName] = split(m[1]);
      yield { kind: 'end', prefix, localName, namespace: resolve(top.namespaces, prefix, lt), depth: open.length + 1, start: lt, end: at, selfClosing: false, scope: top.namespaces };
    } else {
      const name = match(NAME, xml, lt + 1);
      if (!name) throw new XmlScanError(`not a tag at ${lt}`);
      let cursor = lt + 1 + name[0].length;
      const inherited = open.at(-1)?.namespaces;
      let namespaces = inherited ?? new Map([['xml', XML_NAMESPACE]]);
      for (let a = match(ATTRIBUTE, xml, cursor); a; a = match(ATTRIBUTE, xml, cursor)) {
        cursor += a[0].length;
        const attribute = a[1]!;
        if (attribute !== 'xmlns' && !attribute.startsWith('xmlns:')) continue;
        if (namespaces === inherited) namespaces = new Map(inherited);
        namespaces.set(attribute === 'xmlns' ? '' : attribute.slice(6), decodeEntities(a[2] ?? a[3] ?? ''));
      }
      const close = match(TAG_CLOSE, xml, cursor);
      if (!close) throw new XmlScanError(`malformed start tag ${name[0]} at ${lt}`);
      at = cursor + close[0].length;
      const [prefix, localName] = split(name[0]);
      const selfClosing = close[1] === '/';
      const tag = { kind: 'start' as const, prefix, localName, namespace: resolve(namespaces, prefix, lt), depth: open.length + 1, start: lt, end: at, selfClosing, scope: namespaces };
      if (!selfClosing) open.push({ qname: name[0], namespaces });
      yield tag;
    }
  }
  if (open.length > 0) throw new XmlScanError(`${open.at(-1)!.qname} is not closed`);
}

function split(qname: string): [string, string] {
  const colon = qname.indexOf(':');
  return colon < 0 ? ['', qname] : [qname.slice(0, colon), qname.slice(colon + 1)];
}

function resolve(namespaces: Map<string, string>, prefix: string, at: number): string {
  const uri = namespaces.get(prefix);
  // Namespaces 1.0 section 5: an undeclared prefix is an error; no default declaration = no namespace.
  if (uri === undefined && prefix !== '') throw new XmlScanError(`prefix ${prefix} at ${at} is not declared`);
  return uri ?? '';
}
