import type { EnforcedRule } from './enforced-rule.js';

// Rules of the medicine group (MOC group K, prod/med) that the simulator enforces (medicine-rules.ts); see enforced-rules.ts.
export const ENFORCED_MEDICINE: readonly EnforcedRule[] = [{ rule: 'K01-20', code: 873, where: 'authority-sim/medicine-rules.ts medicineRejection' }];
