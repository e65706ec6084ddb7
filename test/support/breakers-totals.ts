import type { GoodsBreaker } from './goods-breakers.js';

// Breakers of the rules in authority-sim/enforced-totals.ts (see rule-breakers.ts for the three kinds).
export const TOTALS_BREAKERS: readonly GoodsBreaker[] = [];
