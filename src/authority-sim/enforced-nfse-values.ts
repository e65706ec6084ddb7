import type { EnforcedRule } from './enforced-rules.js';

// Rules on the DPS values (valores) and IBS/CBS (IBSCBS) that the simulator enforces (nfse/dps-value-rules.ts); see enforced-rules.ts.
export const ENFORCED_NFSE_VALUES: readonly EnforcedRule[] = [];
