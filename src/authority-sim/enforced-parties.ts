import type { EnforcedRule } from './enforced-rules.js';

// Rules on emitter (C), recipient (E) and referenced documents (BA) that the simulator enforces (parties-rules.ts); see enforced-rules.ts.
export const ENFORCED_PARTIES: readonly EnforcedRule[] = [
  { rule: 'C10-10', code: 272, where: 'authority-sim/parties-rules.ts partyRejection' },
  { rule: 'C10-20', code: 273, where: 'authority-sim/parties-rules.ts partyRejection' },
  { rule: 'E10-10', code: 274, where: 'authority-sim/parties-rules.ts partyRejection' },
  { rule: 'E10-20', code: 275, where: 'authority-sim/parties-rules.ts partyRejection' },
  { rule: 'E10-30', code: 509, where: 'authority-sim/parties-rules.ts partyRejection' },
  { rule: 'E14-30', code: 926, where: 'authority-sim/parties-rules.ts partyRejection' },
];
