import type { GoodsBreaker } from './goods-breakers.js';

// Breakers of the rules in authority-sim/enforced-qr-records.ts (see rule-breakers.ts for the three kinds).
export const QR_RECORDS_BREAKERS: readonly GoodsBreaker[] = [];
