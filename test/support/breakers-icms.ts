import type { GoodsBreaker } from './goods-breakers.js';

// Breakers of the rules in authority-sim/enforced-icms.ts (see rule-breakers.ts for the three kinds).
export const ICMS_BREAKERS: readonly GoodsBreaker[] = [];
