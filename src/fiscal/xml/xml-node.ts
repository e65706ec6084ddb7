// Tiny accessors over fast-xml-parser's output: every value stays a string (leading zeros of keys,
// codes and numbers matter), repeated elements are read as lists whatever their count.
import { XMLParser } from 'fast-xml-parser';
import { FISCAL_XML_PARSER_OPTIONS } from './xml-parser-options.js';

export type XmlNode = Record<string, unknown>;

const parser = new XMLParser(FISCAL_XML_PARSER_OPTIONS);

export function parseXml(xml: string): XmlNode {
  return parser.parse(xml) as XmlNode;
}

export function child(node: XmlNode | undefined, key: string): XmlNode | undefined {
  const v = node?.[key];
  const first = Array.isArray(v) ? v[0] : v;
  return first && typeof first === 'object' ? (first as XmlNode) : undefined;
}

export function children(node: XmlNode | undefined, key: string): XmlNode[] {
  const v = node?.[key];
  if (v === undefined || v === null) return [];
  return (Array.isArray(v) ? v : [v]).filter((x): x is XmlNode => typeof x === 'object' && x !== null);
}

/** Text of a child element; empty elements (`<cEAN/>`) read as undefined. */
export function text(node: XmlNode | undefined, key: string): string | undefined {
  const v = node?.[key];
  const first = Array.isArray(v) ? v[0] : v;
  if (first === undefined || first === null) return undefined;
  const s = typeof first === 'object' ? (first as XmlNode)['#text'] : first;
  if (s === undefined || s === null) return undefined;
  const str = String(s);
  return str === '' ? undefined : str;
}

/** Follows a path of single children: path(root, 'nfeProc', 'NFe', 'infNFe'). */
export function path(node: XmlNode | undefined, ...keys: string[]): XmlNode | undefined {
  let cur = node;
  for (const k of keys) cur = child(cur, k);
  return cur;
}
