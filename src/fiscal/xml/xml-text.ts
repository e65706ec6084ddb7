// Writing XML text that is already in Canonical XML 1.0 form (W3C C14N, section 2.3), so that the
// bytes we emit are the bytes we sign: no self-closing tags, no whitespace between tags, and the
// C14N escaping rules for text and attribute values.

const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#xD;' };
const ATTR_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '"': '&quot;',
  '\t': '&#x9;',
  '\n': '&#xA;',
  '\r': '&#xD;',
};

/** Escapes character data the way C14N 1.0 writes it. */
export function escapeText(value: string): string {
  return /[&<>\r]/.test(value) ? value.replace(/[&<>\r]/g, (c) => TEXT_ESCAPES[c]!) : value;
}

/** Escapes an attribute value the way C14N 1.0 writes it (always inside double quotes). */
export function escapeAttr(value: string): string {
  return /[&<"\t\n\r]/.test(value) ? value.replace(/[&<"\t\n\r]/g, (c) => ATTR_ESCAPES[c]!) : value;
}

/**
 * One element with already-serialized children. Attributes must be passed in C14N order
 * (namespace declarations first, then attributes sorted by name) - the caller knows its layout.
 */
export function el(name: string, children: string, attrs?: ReadonlyArray<readonly [string, string]>): string {
  let open = '<' + name;
  if (attrs) for (const [k, v] of attrs) open += ' ' + k + '="' + escapeAttr(v) + '"';
  return open + '>' + children + '</' + name + '>';
}

/** A leaf element with text content. */
export function leaf(name: string, text: string | number): string {
  return '<' + name + '>' + escapeText(String(text)) + '</' + name + '>';
}

/** A leaf element written only when the value is present (optional XSD elements). */
export function optLeaf(name: string, text: string | number | undefined | null): string {
  return text === undefined || text === null || text === '' ? '' : leaf(name, text);
}

export const NFE_NAMESPACE = 'http://www.portalfiscal.inf.br/nfe';
export const NFSE_NAMESPACE = 'http://www.sped.fazenda.gov.br/nfse';
export const XMLDSIG_NAMESPACE = 'http://www.w3.org/2000/09/xmldsig#';
