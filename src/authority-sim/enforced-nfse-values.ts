import type { EnforcedRule } from './enforced-rule.js';

// Rules on the DPS values (valores) and IBS/CBS (IBSCBS) that the simulator enforces (nfse/dps-value-rules.ts,
// nfse/dps-federal-rules.ts for tribFed and totTrib); see enforced-rules.ts.
const at = (where: string) => (rule: string): EnforcedRule => ({ rule, code: rule, where: `authority-sim/nfse/${where}` });
export const ENFORCED_NFSE_VALUES: readonly EnforcedRule[] = [
  ...['E0424', 'E0431', 'E0432', 'E0532', 'E0580', 'E0583', 'E0595', 'E0600', 'E0602'].map(at('dps-value-rules.ts')),
  ...['E0427', 'E0428', 'E0435', 'E0436', 'E0438', 'E0444', 'E0447', 'E0453', 'E0585', 'E0588', 'E0592', 'E0596', 'E0604'].map(at('dps-value-rules.ts')),
  ...['E0675', 'E0676', 'E0677', 'E0678', 'E0680', 'E0682', 'E0684', 'E0688', 'E0690', 'E0694', 'E0696', 'E0698', 'E0699', 'E0700', 'E0701', 'E0720', 'E0724'].map(at('dps-federal-rules.ts')),
  ...['E0702', 'E0703', 'E0704', 'E0706', 'E0707', 'E0708', 'E0710', 'E0712', 'E0713'].map(at('dps-federal-rules.ts')),
];
