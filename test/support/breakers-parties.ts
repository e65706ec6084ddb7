import { NFE, op, type GoodsBreaker } from './goods-breakers.js';
import { setText } from './rule-breakers.js';

// Breakers of the rules in authority-sim/enforced-parties.ts (see rule-breakers.ts for the three kinds).
const ABROAD = 'the gateway writes cMun 9999999, UF EX and the request\'s non-Brazil cPais for every address abroad (nfe-parties.ts)';
export const PARTIES_BREAKERS: readonly GoodsBreaker[] = [
  { kind: 'document', rule: 'E10-30', code: 509, models: NFE, why: ABROAD, applies: (c) => op(c).idDest === 3, break: (d) => ({ xml: setText(d.xml, ['dest', 'enderDest', 'cMun'], () => '3550308') }) },
  { kind: 'document', rule: 'E14-30', code: 926, models: NFE, why: ABROAD, applies: (c) => op(c).idDest === 3, break: (d) => ({ xml: setText(d.xml, ['dest', 'enderDest', 'cPais'], () => '1058') }) },
];
