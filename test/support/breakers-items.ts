import type { GoodsBreaker } from './goods-breakers.js';

// Breakers of the rules in authority-sim/enforced-items.ts (see rule-breakers.ts for the three kinds).
export const ITEMS_BREAKERS: readonly GoodsBreaker[] = [];
