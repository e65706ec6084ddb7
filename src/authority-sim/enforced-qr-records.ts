import type { EnforcedRule } from './enforced-rules.js';

// Rules on the NFC-e QR code (ZX) and on the authority's own records (sections 4.2.1 groups 1-9)
// that the simulator enforces; see enforced-rules.ts.
export const ENFORCED_QR_RECORDS: readonly EnforcedRule[] = [];
