import type { EnforcedRule } from './enforced-rules.js';

// Rules on the DPS values (valores) and IBS/CBS (IBSCBS) that the simulator enforces (nfse/dps-value-rules.ts); see enforced-rules.ts.
const where = 'authority-sim/nfse/dps-value-rules.ts';
export const ENFORCED_NFSE_VALUES: readonly EnforcedRule[] = ['E0424', 'E0431', 'E0432', 'E0532', 'E0580', 'E0583', 'E0595', 'E0600', 'E0602'].map((rule) => ({ rule, code: rule, where }));
