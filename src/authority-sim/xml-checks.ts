import { XMLValidator } from 'fast-xml-parser';
import { nfePackageOfItsDate, validateXml } from '../fiscal/xml/xsd/validate-xml.js';
import type { SchemaError, SchemaPackage } from '../fiscal/xml/xsd/validate-xml.js';

/** 243: the message is not well-formed XML. */
export function isWellFormed(xml: string): boolean {
  return xml.trim().startsWith('<') && XMLValidator.validate(xml) === true;
}

export interface SchemaOutcome {
  valid: boolean;
  errors: SchemaError[];
}

/**
 * Official XSD check of the messages that are not an NF-e (events, inutilização, queries): PL_009, or
 * PL_010 (IBS/CBS, alphanumeric CNPJ) when PL_009 refuses. No newer package of these schemas is
 * bundled (assets/fiscal/SOURCES.md), so the date does not choose among them.
 */
export function checkSchema(xml: string, file: string): SchemaOutcome {
  const current = validateXml(xml, { pkg: 'PL_009', file });
  if (current.valid) return current;
  const next = validateXml(xml, { pkg: 'PL_010', file });
  return next.valid ? next : current;
}

/**
 * The authorization lot (enviNFe): each NF-e is judged by the package in force on its own dhEmi and
 * tpAmb (fiscal/xml/xsd/schema-packages.ts), as the gateway judged it. A lot whose NF-e fall in two
 * periods is checked against both packages and must pass both.
 */
export function checkNfeLotSchema(payload: string): SchemaOutcome & { packages: SchemaPackage[] } {
  const chunks = payload.split(/<(?:[\w-]+:)?infNFe[\s>]/).slice(1);
  const packages = [...new Set((chunks.length ? chunks : [payload]).map((chunk) => nfePackageOfItsDate(chunk)))];
  let outcome: SchemaOutcome = { valid: true, errors: [] };
  for (const pkg of packages) {
    outcome = validateXml(payload, { pkg, file: 'enviNFe_v4.00.xsd' });
    if (!outcome.valid) break;
  }
  return { ...outcome, packages };
}
