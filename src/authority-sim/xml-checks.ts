import { XMLValidator } from 'fast-xml-parser';
import { validateXml } from '../fiscal/xml/xsd/validate-xml.js';
import type { SchemaError } from '../fiscal/xml/xsd/validate-xml.js';

/** 243: the message is not well-formed XML. */
export function isWellFormed(xml: string): boolean {
  return xml.trim().startsWith('<') && XMLValidator.validate(xml) === true;
}

export interface SchemaOutcome {
  valid: boolean;
  errors: SchemaError[];
}

/**
 * Official XSD check. PL_009 is the production layout; a document the RTC layout (PL_010: IBS/CBS,
 * alphanumeric CNPJ) accepts is accepted as well, as the authorities do during the transition.
 */
export function checkSchema(xml: string, file: string): SchemaOutcome {
  const current = validateXml(xml, { pkg: 'PL_009', file });
  if (current.valid) return current;
  const next = validateXml(xml, { pkg: 'PL_010', file });
  return next.valid ? next : current;
}
