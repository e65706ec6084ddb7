import type { X2jOptions } from 'fast-xml-parser';

/**
 * How we read fiscal XML with fast-xml-parser: every value stays a string (nProt, chNFe, cStat and
 * amounts are digit strings whose leading zeros and decimals matter), attributes kept with an `@`
 * prefix, namespace prefixes dropped, entities decoded.
 */
export const FISCAL_XML_PARSER_OPTIONS: Partial<X2jOptions> = {
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
};
