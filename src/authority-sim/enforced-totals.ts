import type { EnforcedRule } from './enforced-rule.js';

// Rules on totals (W), billing (Y), payments (YA), intermediary (YB), transport (X), technical responsible (ZD) that the simulator enforces (totals-rules.ts); see enforced-rules.ts.
const at = (fn: string) => `authority-sim/totals-rules.ts ${fn}`;
export const ENFORCED_TOTALS: readonly EnforcedRule[] = [
  // W: each total against the sum of the items' values, and the NFC-e's value bounds
  ...(
    [
      ['W03-10', 531], ['W04-10', 532], ['W04a-10', 795], ['W04b-10', 861], ['W04c-10', 798], ['W04e-10', 799], ['W04g-10', 800],
      ['W05-10', 533], ['W06-10', 534], ['W06a-10', 862], ['W06b-10', 859], ['W08-10', 535], ['W09-10', 536], ['W10-10', 537],
      ['W11-10', 601], ['W12-10', 538], ['W12a-10', 863], ['W13-10', 602], ['W14-10', 603], ['W15-10', 604], ['W16a-10', 685],
    ] as const
  ).map(([rule, code]) => ({ rule, code, where: at('sumRejection') })),
  { rule: 'W16-30', code: 780, where: at('nfceValueRejection') },
  { rule: 'W16-40', code: 750, where: at('nfceValueRejection') },
  { rule: 'W16-60', code: 752, where: at('nfceValueRejection') },
  // X: transport
  { rule: 'X02-20', code: 868, where: at('transportRejection (from goods-group-rules.ts goodsGroupRejection)') },
  { rule: 'X07-20', code: 544, where: at('transportRejection (from goods-group-rules.ts goodsGroupRejection)') },
  { rule: 'X17-10', code: 288, where: at('transportRejection (from goods-group-rules.ts goodsGroupRejection)') },
  // Y: billing
  { rule: 'Y01-10', code: 760, where: at('billingRejection') },
  { rule: 'Y05-10', code: 901, where: at('billingRejection') },
  { rule: 'Y08-10', code: 852, where: at('billingRejection') },
  { rule: 'Y09-20', code: 900, where: at('billingRejection') },
  // YA: payments
  { rule: 'YA02-04', code: 871, where: at('methodRejection') },
  { rule: 'YA02-10', code: 857, where: at('methodRejection') },
  { rule: 'YA02-40', code: 899, where: at('methodRejection') },
  { rule: 'YA02-50', code: 436, where: at('methodRejection') },
  { rule: 'YA03-30', code: 904, where: at('detPagRejection') },
  { rule: 'YA04-10', code: 391, where: at('detPagRejection') },
  { rule: 'YA05-10', code: 392, where: at('detPagRejection') },
  { rule: 'YA05-20', code: 437, where: at('detPagRejection') },
  // YB: intermediary
  { rule: 'YB01-10', code: 438, where: at('intermediaryRejection') },
  { rule: 'YB01-20', code: 439, where: at('intermediaryRejection') },
  { rule: 'YB02-10', code: 440, where: at('intermediaryRejection') },
];
