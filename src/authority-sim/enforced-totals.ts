import type { EnforcedRule } from './enforced-rules.js';

// Rules on totals (W), billing (Y), payments (YA), intermediary (YB), transport (X), technical responsible (ZD) that the simulator enforces (totals-rules.ts); see enforced-rules.ts.
export const ENFORCED_TOTALS: readonly EnforcedRule[] = [];
