import type { EnforcedRule } from './enforced-rules.js';

// Rules on products (I, H, GA), IPI (O), PIS (Q), COFINS (S), DIFAL (NA) that the simulator enforces (items-rules.ts); see enforced-rules.ts.
export const ENFORCED_ITEMS: readonly EnforcedRule[] = [];
