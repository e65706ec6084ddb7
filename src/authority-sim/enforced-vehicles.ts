import type { EnforcedRule } from './enforced-rule.js';

// Rules of the new-vehicle group (MOC group J, prod/veicProd) that the simulator enforces (vehicle-rules.ts); see enforced-rules.ts.
export const ENFORCED_VEHICLES: readonly EnforcedRule[] = [
  { rule: 'J01-10', code: 736, where: 'authority-sim/vehicle-rules.ts vehicleRejection' },
  { rule: 'C18-20', code: 478, where: 'authority-sim/vehicle-rules.ts vehicleRejection' },
];
