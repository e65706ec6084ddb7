import type { EnforcedRule } from './enforced-rule.js';

// Rules on ICMS of each item (N) that the simulator enforces (icms-rules.ts); see enforced-rules.ts.
const WHERE = 'authority-sim/icms-rules.ts icmsRejection';
export const ENFORCED_ICMS: readonly EnforcedRule[] = [
  { rule: 'N12-30', code: 766, where: WHERE },
  // NT 2023.001's monophase rules (icms-mono-rules.ts).
  { rule: 'N43a-10', code: 769, where: 'authority-sim/icms-mono-rules.ts monoRejection' },
  { rule: 'N37a-10', code: 767, where: 'authority-sim/icms-mono-rules.ts monoRejection' },
  { rule: 'N39a-10', code: 768, where: 'authority-sim/icms-mono-rules.ts monoRejection' },
  { rule: 'N39-10', code: 962, where: 'authority-sim/icms-mono-rules.ts monoRejection' },
  { rule: 'N41-10', code: 964, where: 'authority-sim/icms-mono-rules.ts monoRejection' },
  { rule: 'N41-20', code: 964, where: 'authority-sim/icms-mono-rules.ts monoRejection' },
  { rule: 'N12-34', code: 381, where: WHERE },
  { rule: 'N12-40', code: 382, where: WHERE },
  { rule: 'N12-44', code: 382, where: WHERE },
  { rule: 'N12a-20', code: 383, where: WHERE },
  { rule: 'N12a-34', code: 385, where: WHERE },
  { rule: 'N12a-40', code: 386, where: WHERE },
  { rule: 'N12a-44', code: 386, where: WHERE },
  { rule: 'N17b-10', code: 880, where: WHERE },
  { rule: 'N23b-10', code: 881, where: WHERE },
  { rule: 'N12-70', code: 508, where: `${WHERE} (nonTaxpayerCst)` },
  { rule: 'N12-80', code: 529, where: `${WHERE} (exemptRecipientCst)` },
  { rule: 'N12a-70', code: 600, where: `${WHERE} (nonTaxpayerCsosn)` },
  { rule: 'N16-20', code: 693, where: `${WHERE} (interstateRateRejection)` },
  { rule: 'N17c-10', code: 860, where: `${WHERE} (fcpValueRejection)` },
  { rule: 'N17c-20', code: 876, where: `${WHERE} (interstateFcpRejection)` },
  { rule: 'N23-10', code: 806, where: `${WHERE} (cestRejection)` },
  // Only in the states of assets/fiscal/rules/cbenef-required.json (docs/fiscal/cbenef.md).
  { rule: 'N12-85', code: 930, where: 'authority-sim/cbenef-rules.ts cbenefRejection' },
  { rule: 'N23d-10', code: 860, where: `${WHERE} (fcpStValueRejection)` },
  { rule: 'N27b-10', code: 881, where: `${WHERE} (retainedFcpRejection)` },
  { rule: 'N27d-10', code: 860, where: `${WHERE} (retainedFcpRejection)` },
  { rule: 'N16a-10', code: 351, where: `${WHERE} (ownIcmsValueRejection)` },
  { rule: 'N16c-10', code: 352, where: `${WHERE} (ownIcmsValueRejection)` },
  { rule: 'N17-10', code: 353, where: `${WHERE} (ownIcmsValueRejection)` },
  { rule: 'N17-20', code: 528, where: `${WHERE} (ownIcmsValueRejection)` },
  { rule: 'N28-30', code: 627, where: `${WHERE} (reliefRejection)` },
];
