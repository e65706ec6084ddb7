/**
 * Exact-byte slicing of XML elements. The protocol (protNFe) and event answers must be kept as the
 * authority sent them: re-serialising would change bytes the authority signed (docs/fiscal/signature.md: whitespace
 * and attribute order matter to the signature), so we cut them out of the text instead of parsing.
 *
 * Tags are searched in a copy of the text where comments, CDATA sections and processing instructions
 * are blanked (same length, so offsets hold): what a parser does not see as an element, the slicer
 * does not either (`<!-- NFe 2003 -->` before a signed NFe 2002 was read as 2003).
 * The slices themselves are cut from the text as sent.
 */

export interface ElementSlice {
  /** The whole element, from `<` of the start tag to `>` of the end tag. */
  outer: string;
  /** The text between the start and the end tag ('' for an empty element). */
  inner: string;
  /** The prefix used on the tag ('' when none), e.g. `soap` for `<soap:Body>`. */
  prefix: string;
  start: number;
  end: number;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// Compiled patterns by element name: the simulator slices ~40 elements per NF-e, and compiling two
// regular expressions per slice was a visible share of its time (bench/authority.ts). Callers are
// synchronous, so sharing a global regex (lastIndex set before each use) is safe.
const openTags = new Map<string, RegExp>();
const anyTags = new Map<string, RegExp>();
function cached(cache: Map<string, RegExp>, name: string, make: () => RegExp): RegExp {
  let re = cache.get(name);
  if (!re) {
    if (cache.size >= 1000) cache.clear();
    re = make();
    cache.set(name, re);
  }
  return re;
}

// Callers slice many elements out of one text in a row: the last blanked copy is kept.
let lastText = '';
let lastSearchable = '';
const HIDDEN = /<!--[\s\S]*?(?:-->|$)|<!\[CDATA\[[\s\S]*?(?:\]\]>|$)|<\?[\s\S]*?(?:\?>|$)|<!DOCTYPE[^[>]*(?:\[[\s\S]*?\][^>]*)?(?:>|$)/g;

/** The text with comments, CDATA sections, processing instructions and a DOCTYPE blanked (unterminated: to the end). */
function searchable(xml: string): string {
  // The same text first (the same string: one comparison), so slicing 990 det out of one infNFe scans
  // it once, not once per slice (that scan per call made the simulator's nfeFacts take 1 s on the loop).
  if (xml === lastText) return lastSearchable;
  // Outside those constructs "<!" and "<?" cannot occur in XML text or attribute values.
  lastSearchable = !xml.includes('<!') && !xml.includes('<?') ? xml : xml.replace(HIDDEN, (m) => ' '.repeat(m.length));
  lastText = xml;
  return lastSearchable;
}

/** First element with this local name (any prefix) at or after `from`; null when absent or unclosed. */
export function sliceElement(text: string, localName: string, from = 0): ElementSlice | null {
  const xml = searchable(text);
  const open = cached(openTags, localName, () => new RegExp(`<(?:([A-Za-z_][\\w.-]*):)?${escapeRegExp(localName)}(?=[\\s/>])`, 'g'));
  open.lastIndex = from;
  const first = open.exec(xml);
  if (!first) return null;
  const prefix = first[1] ?? '';
  const start = first.index;
  const startTagEnd = xml.indexOf('>', start);
  if (startTagEnd < 0) return null;
  if (xml[startTagEnd - 1] === '/') {
    return { outer: text.slice(start, startTagEnd + 1), inner: '', prefix, start, end: startTagEnd + 1 };
  }
  const qname = prefix ? `${prefix}:${localName}` : localName;
  // Depth counting handles the (rare) nesting of a same-named element.
  const tag = cached(anyTags, qname, () => new RegExp(`<(/?)${escapeRegExp(qname)}(?=[\\s/>])[^>]*?(/?)>`, 'g'));
  tag.lastIndex = startTagEnd + 1;
  let depth = 1;
  for (let m = tag.exec(xml); m; m = tag.exec(xml)) {
    if (m[1] === '/') depth -= 1;
    else if (m[2] !== '/') depth += 1;
    if (depth === 0) {
      const end = m.index + m[0].length;
      return { outer: text.slice(start, end), inner: text.slice(startTagEnd + 1, m.index), prefix, start, end };
    }
  }
  return null;
}

/** Every element with this local name, in document order (non-overlapping). */
export function sliceAll(xml: string, localName: string): ElementSlice[] {
  const out: ElementSlice[] = [];
  for (let s = sliceElement(xml, localName); s; s = sliceElement(xml, localName, s.end)) out.push(s);
  return out;
}

/** Value of an attribute on the start tag of an element slice. */
export function attributeOf(slice: ElementSlice, attribute: string): string | null {
  const startTag = slice.outer.slice(0, slice.outer.indexOf('>') + 1);
  const m = new RegExp(`\\s${escapeRegExp(attribute)}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(startTag);
  return m ? (m[1] ?? m[2] ?? '') : null;
}

/** Text of the first simple element with this local name, or null. */
export function textOf(xml: string, localName: string): string | null {
  const s = sliceElement(xml, localName);
  return s ? decodeEntities(s.inner) : null;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Resolves the five predefined entities and numeric character references. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (_, e: string) => {
    if (e.startsWith('#x')) return String.fromCodePoint(parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(parseInt(e.slice(1), 10));
    return ENTITIES[e] ?? '';
  });
}
