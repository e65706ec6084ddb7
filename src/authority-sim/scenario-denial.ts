import { sliceElement } from '../fiscal/sefaz/xml-slice.js';
import type { NfeFacts } from './nfe-facts.js';
import type { Scenario } from './scenario.js';

// The denials a `deny[:cStat]` scenario stands for: the sandbox user plays the authority's register
// of the parties (MOC 7.0 section 4.2.1 database groups 1 and 5), and the register can only deny
// what the MOC lets it deny:
//   deny, deny:110 - Uso Denegado (the generic code);
//   deny:301 - MOC 1C17-40: the issuer is irregular before the tax authority (both models);
//   deny:302 - MOC 5E17-40: the recipient, whose IE the NF-e informs, is irregular (model 55);
//   deny:303 - MOC 5E17-60: the recipient, a CNPJ without IE, may not operate in the UF (model 55).
// A scenario whose condition the document cannot meet (302/303 on an NFC-e, or on an NF-e without
// such a recipient) denies nothing: the note is judged as without the scenario.

/** The denial cStat the scenario gives this document, or null. */
export function scenarioDenial(scenario: Scenario | null, f: NfeFacts): 110 | 301 | 302 | 303 | null {
  if (scenario?.kind !== 'deny') return null;
  if (scenario.cStat === 110 || scenario.cStat === 301) return scenario.cStat;
  const dest = f.mod === '55' ? sliceElement(sliceElement(f.xml, 'infNFe')?.inner ?? '', 'dest') : null;
  if (!dest) return null;
  const hasIe = sliceElement(dest.inner, 'IE') !== null;
  if (scenario.cStat === 302) return hasIe ? 302 : null;
  return !hasIe && sliceElement(dest.inner, 'CNPJ') !== null ? 303 : null;
}
