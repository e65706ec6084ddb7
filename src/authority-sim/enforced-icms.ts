import type { EnforcedRule } from './enforced-rules.js';

// Rules on ICMS of each item (N) that the simulator enforces (icms-rules.ts); see enforced-rules.ts.
export const ENFORCED_ICMS: readonly EnforcedRule[] = [];
