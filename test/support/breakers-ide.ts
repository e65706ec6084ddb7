import type { GoodsBreaker } from './goods-breakers.js';

// Breakers of the rules in authority-sim/enforced-ide.ts (see rule-breakers.ts for the three kinds).
export const IDE_BREAKERS: readonly GoodsBreaker[] = [];
