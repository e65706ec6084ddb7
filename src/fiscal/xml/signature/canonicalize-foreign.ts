// Canonical XML 1.0 (inclusive, without comments; docs/fiscal/signature.md) of one element of a document we did NOT
// write, e.g. an unsigned NFe a point of sale sends: its text may use empty-element tags, other
// attribute order or quoting, character references... so it is parsed and canonicalized by xml-crypto
// (canonical-element.ts handles only the canonical text we write ourselves, without a DOM).
import { DOMParser, type Element } from '@xmldom/xmldom';
import { C14nCanonicalization } from 'xml-crypto';

/**
 * The canonical form of the single `localName` element of `xml`, with every namespace declaration in
 * scope rendered on its start tag (as an enveloped signature's digest sees it); null when the text is
 * not well-formed or holds no or several such elements.
 */
export function canonicalForeignElement(xml: string, localName: string): string | null {
  let fatal = false;
  let doc;
  try {
    doc = new DOMParser({ onError: (level) => void (level !== 'warning' && (fatal = true)) }).parseFromString(xml, 'text/xml');
  } catch {
    return null; // xmldom throws ParseError on fatal errors
  }
  if (fatal || !doc.documentElement) return null;
  const found = Array.from(doc.getElementsByTagName('*') as ArrayLike<Element>).filter((e) => e.localName === localName);
  if (found.length !== 1) return null;
  return canonicalOf(found[0]!);
}

/** The canonical form of an element of a tree already parsed, as canonicalForeignElement gives it. */
export function canonicalOf(element: Element): string {
  const c14n = new C14nCanonicalization();
  return c14n.process(element as unknown as Parameters<C14nCanonicalization['process']>[0], {});
}
