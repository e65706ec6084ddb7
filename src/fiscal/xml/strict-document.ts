// One strict reading of an XML document somebody else wrote: parsed by
// @xmldom/xmldom, the parser the signature check uses, so that what the gateway reads and what the
// signature covers are one tree. A regular-expression slicer also reads inside comments and CDATA,
// and the signature (C14N without comments) does not: `<!-- NFe 2003 -->` before the signed NFe 2002
// was read as 2003. Here anything a fiscal document never holds is refused before anyone reads it:
// comments, processing instructions (the XML declaration aside), a DOCTYPE, CDATA outside the
// elements that may carry it, and anything beside the one root element. Pure.
import { DOMParser, type Document, type Element, type Node } from '@xmldom/xmldom';

export interface StrictRules {
  /** Local name and namespace of the one root element. */
  root: string;
  namespace: string;
  /** Elements (local names) whose content may hold CDATA sections, e.g. infNFeSupl's QR code. */
  cdataWithin?: readonly string[];
  /** Bounds: text size (UTF-8 bytes), element count and depth. */
  maxBytes: number;
  maxElements: number;
  maxDepth: number;
}

export type StrictDocument = { ok: true; document: Document; root: Element; rootXml: string } | { ok: false; problem: string };

const NODE = { element: 1, text: 3, cdata: 4, pi: 7, comment: 8, doctype: 10 } as const;
const refuse = (problem: string): StrictDocument => ({ ok: false, problem });

/**
 * The document's one root element, or the first reason it is not a document the rules allow (worded
 * to follow the field name, e.g. "xml " + problem). `rootXml` is the root element's own text, as sent:
 * what sits beside it may only be an XML declaration and whitespace, so it is the text with those cut.
 */
export function parseStrictDocument(xml: string, rules: StrictRules): StrictDocument {
  const bytes = Buffer.byteLength(xml, 'utf8');
  if (bytes > rules.maxBytes) return refuse(`has ${bytes} bytes, more than the ${rules.maxBytes} a document may have`);
  // Said before parsing: a DOCTYPE may also make the text malformed, and this is the clearer answer.
  if (/<!DOCTYPE/i.test(xml)) return refuse('has a DOCTYPE; a fiscal document has none (entities and external references are refused)');
  const rough = roughBounds(xml, rules);
  if (rough) return refuse(rough);
  let error: string | null = null;
  let document: Document;
  try {
    document = new DOMParser({ onError: (level, message) => void (level !== 'warning' && (error ??= message)) }).parseFromString(xml, 'text/xml');
  } catch (err) {
    return refuse(`is not well-formed XML: ${firstLine(err instanceof Error ? err.message : String(err))}`);
  }
  if (error) return refuse(`is not well-formed XML: ${firstLine(error)}`);

  let root: Element | null = null;
  let position = 0;
  for (let n: Node | null = document.firstChild; n; n = n.nextSibling, position++) {
    if (n.nodeType === NODE.pi && n.nodeName === 'xml' && position === 0) continue; // the XML declaration
    const found = outside(n);
    if (found) return refuse(found);
    if (n.nodeType !== NODE.element) continue;
    if (root) return refuse(`has more than one element at the top; only the one ${rules.root} element may be sent`);
    root = n as Element;
  }
  if (!root || root.localName !== rules.root || root.namespaceURI !== rules.namespace) {
    return refuse(`is not one ${rules.root} element in the namespace ${rules.namespace}`);
  }
  const inside = walk(root, rules);
  if (inside) return refuse(inside);
  const rootXml = xml.replace(/^\s*(?:<\?xml\b[\s\S]*?\?>)?\s*/, '').replace(/\s+$/, '');
  return { ok: true, document, root, rootXml };
}

/** What is wrong with a node beside the root element; null for the element itself and whitespace. */
function outside(n: Node): string | null {
  switch (n.nodeType) {
    case NODE.element:
      return null;
    case NODE.text:
      return /^\s*$/.test(n.nodeValue ?? '') ? null : 'has text outside the root element';
    default:
      return `has ${what(n)} outside the root element; only the element itself (and an XML declaration) may be sent`;
  }
}

function what(n: Node): string {
  if (n.nodeType === NODE.comment) return 'a comment (<!-- -->)';
  if (n.nodeType === NODE.pi) return `a processing instruction (<?${n.nodeName} ?>)`;
  if (n.nodeType === NODE.doctype) return 'a DOCTYPE';
  if (n.nodeType === NODE.cdata) return 'a CDATA section';
  return `a node of type ${n.nodeType}`;
}

/** Every node below the root, without recursion (depth is bounded, but a stack is cheaper than a call chain). */
function walk(root: Element, rules: StrictRules): string | null {
  const cdataWithin = new Set(rules.cdataWithin ?? []);
  const stack: { node: Node; depth: number; cdata: boolean }[] = [{ node: root, depth: 1, cdata: false }];
  let elements = 0;
  while (stack.length > 0) {
    const { node, depth, cdata } = stack.pop()!;
    if (node.nodeType === NODE.element) {
      if (++elements > rules.maxElements) return `has more than ${rules.maxElements} elements`;
      if (depth > rules.maxDepth) return `nests elements more than ${rules.maxDepth} deep`;
      const mayHoldCdata = cdata || cdataWithin.has((node as Element).localName ?? '');
      for (let c = node.firstChild; c; c = c.nextSibling) stack.push({ node: c, depth: depth + 1, cdata: mayHoldCdata });
      continue;
    }
    if (node.nodeType === NODE.text) continue;
    if (node.nodeType === NODE.cdata && cdata) continue;
    const where = `inside ${(node.parentNode as Element | null)?.localName ?? 'the document'}`;
    if (node.nodeType === NODE.cdata) return `has a CDATA section ${where}; CDATA is accepted only in ${[...cdataWithin].join(', ') || 'no element'}`;
    return `has ${what(node)} ${where}; a fiscal document holds neither comments nor processing instructions`;
  }
  return null;
}

/**
 * The element count and depth by a scan of the tags, before the parser sees the text: xmldom takes
 * seconds over 250,000 nested or 300,000 empty elements, and this scan milliseconds. It only refuses
 * (the exact count comes from the tree); it can overcount only in texts no fiscal document is (a
 * `>` inside an attribute value, a `<` inside CDATA), never undercount.
 */
function roughBounds(xml: string, rules: StrictRules): string | null {
  let depth = 0;
  let elements = 0;
  for (let i = xml.indexOf('<'); i >= 0; i = xml.indexOf('<', i + 1)) {
    const next = xml.charCodeAt(i + 1);
    if (next === 0x2f /* / */) {
      depth--;
      continue;
    }
    if (next === 0x21 /* ! */ || next === 0x3f /* ? */) continue;
    if (++elements > rules.maxElements) return `has more than ${rules.maxElements} elements`;
    const end = xml.indexOf('>', i);
    if (end < 0) break; // not well-formed: the parser says so
    if (xml.charCodeAt(end - 1) !== 0x2f) depth++;
    if (depth > rules.maxDepth) return `nests elements more than ${rules.maxDepth} deep`;
    i = end;
  }
  return null;
}

const firstLine = (s: string) => s.split('\n')[0]!.slice(0, 200);
