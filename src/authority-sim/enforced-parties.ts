import type { EnforcedRule } from './enforced-rules.js';

// Rules on emitter (C), recipient (E) and referenced documents (BA) that the simulator enforces (parties-rules.ts); see enforced-rules.ts.
export const ENFORCED_PARTIES: readonly EnforcedRule[] = [
  { rule: 'E10-30', code: 509, where: 'authority-sim/parties-rules.ts partyRejection' },
  { rule: 'E14-30', code: 926, where: 'authority-sim/parties-rules.ts partyRejection' },
];
