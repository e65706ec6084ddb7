import type { GoodsBreaker } from './goods-breakers.js';

// Breakers of the rules in authority-sim/enforced-epec.ts (see rule-breakers.ts for the three kinds).

const RECORDS = 'the authority\'s records: an EPEC registered at the Ambiente Nacional for the note\'s number (docs/fiscal/epec.md), which a random sale has not; test/authority-epec.test.ts breaks it';

export const EPEC_BREAKERS: readonly GoodsBreaker[] = [
  { kind: 'excluded', rule: '2AB08-10', code: 692, why: RECORDS },
  { kind: 'excluded', rule: '2AB08-20', code: 691, why: RECORDS },
  { kind: 'excluded', rule: '2AB08-30', code: 467, why: RECORDS },
  { kind: 'excluded', rule: '2AB08-40', code: 468, why: 'the gateway writes tpEmis 4 only on a note whose EPEC it registers first; test/authority-epec.test.ts sends one without' },
];
