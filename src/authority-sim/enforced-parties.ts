import type { EnforcedRule } from './enforced-rules.js';

// Rules on emitter (C), recipient (E) and referenced documents (BA) that the simulator enforces (parties-rules.ts); see enforced-rules.ts.
export const ENFORCED_PARTIES: readonly EnforcedRule[] = [];
