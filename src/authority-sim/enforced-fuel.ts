import type { EnforcedRule } from './enforced-rule.js';

// Rules of the fuel group (MOC group LA, prod/comb) that the simulator enforces (fuel-rules.ts); see enforced-rules.ts.
const WHERE = 'authority-sim/fuel-rules.ts fuelRejection';
export const ENFORCED_FUEL: readonly EnforcedRule[] = [
  { rule: 'LA03c-10', code: 461, where: WHERE },
  { rule: 'LA03c-20', code: 855, where: WHERE },
  { rule: 'LA03d-10', code: 856, where: WHERE },
  { rule: 'LA11-20', code: 379, where: WHERE },
  { rule: 'LA16-10', code: 380, where: WHERE },
  { rule: 'N08-10', code: 858, where: WHERE },
];
