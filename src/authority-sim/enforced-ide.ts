import type { EnforcedRule } from './enforced-rules.js';

// Rules on ide (B) and the general rules of section 4.1 and 4.3 that a document can break that the simulator enforces (ide-rules.ts); see enforced-rules.ts.
export const ENFORCED_IDE: readonly EnforcedRule[] = [];
