// Locating a signed element inside XML we generated ourselves and deriving its Canonical XML 1.0 form
// without a DOM: the text is already canonical, so only the apex start tag changes - inclusive C14N
// (REC-xml-c14n-20010315 section 2.4) renders on it every namespace declaration in scope, e.g. the
// `xmlns="http://www.portalfiscal.inf.br/nfe"` inherited from NFe/evento/inutNFe.
import { escapeAttr } from '../xml-text.js';

export interface CanonicalElement {
  canonical: string;
  id: string;
  /** Offset of the `</parent>` tag that closes the signed element's parent. */
  parentCloseAt: number;
}

const TAG = /<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/g;
const ATTR = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

type Attr = [name: string, value: string];

function attributesOf(source: string): Attr[] {
  const out: Attr[] = [];
  for (const m of source.matchAll(ATTR)) out.push([m[1]!, m[2] ?? m[3] ?? '']);
  return out;
}

/** Namespace declarations in scope at `end` (prefix '' = default namespace). */
function inScopeNamespaces(xml: string, end: number): Map<string, string> {
  const stack: Map<string, string>[] = [new Map()];
  TAG.lastIndex = 0;
  for (let m = TAG.exec(xml); m && m.index < end; m = TAG.exec(xml)) {
    if (m[1]) {
      stack.pop();
      continue;
    }
    if (m[4]) continue;
    const frame = new Map(stack[stack.length - 1]);
    for (const [name, value] of attributesOf(m[3] ?? '')) {
      if (name === 'xmlns') frame.set('', value);
      else if (name.startsWith('xmlns:')) frame.set(name.slice(6), value);
    }
    stack.push(frame);
  }
  return stack[stack.length - 1] ?? new Map();
}

export function canonicalElement(xml: string, elementName: string): CanonicalElement {
  const open = new RegExp(`<${elementName}[\\s>]`, 'g');
  const starts = [...xml.matchAll(open)];
  if (starts.length !== 1) throw new Error(`expected exactly one <${elementName}>, found ${starts.length}`);
  const start = starts[0]!.index;
  const startTagEnd = xml.indexOf('>', start);
  const closeTag = `</${elementName}>`;
  const closeAt = xml.indexOf(closeTag, startTagEnd);
  if (startTagEnd < 0 || closeAt < 0) throw new Error(`<${elementName}> is not closed`);
  const content = xml.slice(startTagEnd + 1, closeAt);
  // Canonical form has no empty-element tags, CDATA, comments or PIs; anything else would be signed wrongly.
  if (/\/>|<!|<\?/.test(content) || xml[startTagEnd - 1] === '/') {
    throw new Error(`<${elementName}> is not in canonical form (empty-element tag, CDATA, comment or PI)`);
  }

  const own = attributesOf(xml.slice(start + elementName.length + 1, startTagEnd));
  const namespaces = inScopeNamespaces(xml, start);
  const attrs: Attr[] = [];
  for (const [name, value] of own) {
    if (name === 'xmlns') namespaces.set('', value);
    else if (name.startsWith('xmlns:')) namespaces.set(name.slice(6), value);
    else attrs.push([name, value]);
  }
  if (attrs.some(([name]) => name.includes(':'))) throw new Error(`prefixed attributes on <${elementName}> are not supported`);
  const id = attrs.find(([name]) => name === 'Id')?.[1];
  if (!id) throw new Error(`<${elementName}> has no Id attribute`);

  // C14N order: default namespace, then prefixed declarations by prefix, then attributes by name.
  const nsDecls = [...namespaces.entries()]
    .filter(([prefix, uri]) => !(prefix === '' && uri === ''))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([prefix, uri]) => ` ${prefix ? 'xmlns:' + prefix : 'xmlns'}="${escapeAttr(uri)}"`);
  const attrText = attrs
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => ` ${name}="${value}"`);
  const canonical = `<${elementName}${nsDecls.join('')}${attrText.join('')}>${content}${closeTag}`;

  return { canonical, id, parentCloseAt: parentCloseOffset(xml, closeAt + closeTag.length) };
}

/** First end tag at depth 0 after `from`: the signed element's parent closes there. */
function parentCloseOffset(xml: string, from: number): number {
  let depth = 0;
  TAG.lastIndex = from;
  for (let m = TAG.exec(xml); m; m = TAG.exec(xml)) {
    if (m[1]) {
      if (depth === 0) return m.index;
      depth--;
    } else if (!m[4]) depth++;
  }
  throw new Error('signed element has no parent element');
}
