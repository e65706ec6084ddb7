import type { GoodsBreaker } from './goods-breakers.js';

// Breakers of the rules in authority-sim/enforced-parties.ts (see rule-breakers.ts for the three kinds).
export const PARTIES_BREAKERS: readonly GoodsBreaker[] = [];
