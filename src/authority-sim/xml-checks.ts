import { XMLValidator } from 'fast-xml-parser';
import { hasSchema } from '../fiscal/xml/xsd/schema-cache.js';
import { messagePackageFor } from '../fiscal/xml/xsd/schema-packages.js';
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
 * Official XSD check of the messages that are not an NF-e (events, inutilização, queries): the package
 * the web service runs when the message arrives (`at`, the simulator's clock) in the message's tpAmb,
 * fiscal/xml/xsd/schema-packages.ts NFE_MESSAGE_LAYOUTS: PL_009 (numeric CNPJ) until NT 2026.004 put the
 * alphanumeric CNPJ in production, PL_010 from then on; a reform event schema PL_009 lacks is PL_010's.
 */
export function checkSchema(xml: string, file: string, at: Date, tpAmb: 1 | 2 = tpAmbOf(xml)): SchemaOutcome {
  const pkg = messagePackageFor(at, tpAmb);
  return validateXml(xml, { pkg: hasSchema(pkg, file) ? pkg : 'PL_010', file });
}

/** The message's environment: 2 (homologation) when it says so, else 1. */
export function tpAmbOf(xml: string): 1 | 2 {
  return /<(?:[\w-]+:)?tpAmb>\s*2\s*</.test(xml) ? 2 : 1;
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
