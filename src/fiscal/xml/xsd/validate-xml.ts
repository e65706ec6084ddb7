// Whole-document validation against the official XSDs (SEFAZ answers 215/225 on a schema failure).
import { XmlDocument, XmlElement, XmlParseError, XmlValidateError, type ErrorDetail, type XmlTreeNode } from 'libxml2-wasm';
import { compiledSchema, type SchemaPackage } from './schema-cache.js';
import { schemaPackageFor } from './schema-packages.js';

export type { SchemaPackage } from './schema-cache.js';

export interface SchemaError {
  message: string;
  line: number;
  /** Element path with names and 1-based positions among same-name siblings, e.g. /NFe/infNFe/det[3]/prod/NCM */
  path?: string;
}

export interface SchemaValidation {
  valid: boolean;
  errors: SchemaError[];
}

export function validateXml(xml: string, schema: { pkg: SchemaPackage; file: string }): SchemaValidation {
  const validator = compiledSchema(schema.pkg, schema.file);
  let doc: XmlDocument;
  try {
    doc = XmlDocument.fromString(xml);
  } catch (err) {
    if (err instanceof XmlParseError) return { valid: false, errors: err.details.map((d) => toSchemaError(d)) };
    throw err;
  }
  try {
    validator.validate(doc);
    return { valid: true, errors: [] };
  } catch (err) {
    if (err instanceof XmlValidateError) return { valid: false, errors: err.details.map((d) => toSchemaError(d, doc)) };
    throw err;
  } finally {
    doc.dispose();
  }
}

const ROOT_SCHEMAS: Record<string, string> = {
  NFe: 'nfe_v4.00.xsd',
  enviNFe: 'enviNFe_v4.00.xsd',
  nfeProc: 'procNFe_v4.00.xsd',
};

/** Validates an NFe, enviNFe or nfeProc document, picking the root schema from the root element. */
export function validateNfe(xml: string, pkg: SchemaPackage = 'PL_009'): SchemaValidation {
  const root = /<(?:[\w-]+:)?(NFe|enviNFe|nfeProc)[\s>]/.exec(xml.slice(0, 300))?.[1] ?? 'NFe';
  return validateXml(xml, { pkg, file: ROOT_SCHEMAS[root]! });
}

/**
 * Validates an NFe, enviNFe or nfeProc against the package in force on the document's own date: the
 * first dhEmi, tpAmb and mod it carries (schema-packages.ts). Says which package judged it.
 */
export function validateNfeOfItsDate(xml: string): SchemaValidation & { pkg: SchemaPackage } {
  const pkg = nfePackageOfItsDate(xml);
  return { ...validateNfe(xml, pkg), pkg };
}

/** The package in force on the first dhEmi of an NF-e/NFC-e (or of a lot of them), for its tpAmb and mod. */
export function nfePackageOfItsDate(xml: string): SchemaPackage {
  const field = (name: string) => new RegExp(`<(?:[\\w-]+:)?${name}>([^<]*)<`).exec(xml)?.[1]?.trim();
  return schemaPackageFor(field('mod') === '55' ? 55 : 65, field('dhEmi') ?? '', field('tpAmb') === '2' ? 2 : 1);
}

function toSchemaError(detail: ErrorDetail, doc?: XmlDocument): SchemaError {
  const error: SchemaError = { message: detail.message.trim(), line: detail.line };
  const path = doc && detail.xpath ? namedPath(doc, detail.xpath) : undefined;
  if (path) error.path = path;
  return error;
}

/** libxml2 reports positional paths (/*\/*[1]/*[4]); the caller wants element names. */
function namedPath(doc: XmlDocument, xpath: string): string | undefined {
  let node: unknown;
  try {
    node = doc.get(xpath);
  } catch {
    return undefined;
  }
  if (!(node instanceof XmlElement)) return undefined;
  const steps: string[] = [];
  for (let el: XmlElement | null = node; el; el = el.parent) {
    const name = el.name;
    let index = 0;
    let total = 0;
    for (let sib: XmlTreeNode | null = el.parent?.firstChild ?? null; sib; sib = sib.next) {
      if (sib instanceof XmlElement && sib.name === name) {
        total++;
        if (sib.isSameNode(el)) index = total;
      }
    }
    steps.unshift(total > 1 ? `${name}[${index}]` : name);
  }
  return '/' + steps.join('/');
}
