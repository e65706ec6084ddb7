import { icmsRejection } from './icms-rules.js';
import { ideRejection } from './ide-rules.js';
import { adjustmentNoteRejection } from './adjustment-note-rules.js';
import { itemRuleRejection } from './items-rules.js';
import { partyRejection } from './parties-rules.js';
import { totalsPaymentRejection } from './totals-rules.js';
import { goodsGroupRejection } from './goods-group-rules.js';
import type { NfeFacts } from './nfe-facts.js';
import { contentRejection, type ContentContext, type Rejection } from './nfe-rules.js';
import { model55Rejection } from './nfe55-rules.js';
import { totalRejection } from './nfe-total-rules.js';
import { registrationRejection } from './registration-rules.js';
import { reformRejection } from './reform-rules.js';

/**
 * The content rules of NFeAutorizacao4 after the identity rules, in the order the simulator applies
 * them (registrations, identification, parties, content, items, ICMS, totals and payments, the reform groups
 * (NT 2025.002-RTC), model 55,
 * transport and export groups); the first rejection
 * or null. One place, so the property test (test/support/simulator-verdict.ts) runs the same chain.
 */
export function authorizationRuleRejection(facts: NfeFacts, ctx: ContentContext): Rejection | null {
  return (
    registrationRejection(facts) ??
    ideRejection(facts, ctx) ??
    adjustmentNoteRejection(facts) ??
    partyRejection(facts, ctx) ??
    contentRejection(facts, ctx) ??
    itemRuleRejection(facts, ctx) ??
    icmsRejection(facts, ctx) ??
    totalRejection(facts) ??
    totalsPaymentRejection(facts, ctx) ??
    reformRejection(facts) ??
    model55Rejection(facts) ??
    goodsGroupRejection(facts)
  );
}
