import { describe, expect, it } from 'vitest';
import type { Errors } from '../../../fiscal/layout/field-rules.js';
import { checkForeignTradeItem, totalII, type ForeignTradeItem } from './validate-foreign-trade.js';

// docs/fiscal/vehicles-and-foreign-trade.md: the MOC rules for veicProd, DI/II and detExport.
const run = (it: ForeignTradeItem, model: 55 | 65 = 55, idDest: 1 | 2 | 3 = 1) => {
  const errors: Errors = [];
  checkForeignTradeItem(errors, 'items[0]', it, { model, idDest });
  return errors.map((e) => [e.field, e.rule]);
};
const di = { number: '2612345678', additions: [{}] };
const ii = { base: 1000, customs_expenses: 0, value: 140, iof: 0 };

describe('checkForeignTradeItem', () => {
  it('J01-10 (736): veicProd in an NFC-e is refused, in an NF-e accepted', () => {
    expect(run({ cfop: '5403', vehicle: { chassis: '9BWZZZ377VT004251' } }, 65)).toEqual([['items[0].vehicle', 'J01-10']]);
    expect(run({ cfop: '5403', vehicle: { chassis: '9BWZZZ377VT004251' } }, 55)).toEqual([]);
  });
  it('I08-110 (525) / I08-130 (599): CFOP 3102 needs DI and II; 3201 needs neither; 3211 needs DI only', () => {
    expect(run({ cfop: '3102' }, 55, 3)).toEqual([['items[0].import_declarations', 'I08-110'], ['items[0].import_tax', 'I08-130']]);
    expect(run({ cfop: '3102', import_declaration: di, import_tax: ii }, 55, 3)).toEqual([]);
    expect(run({ cfop: '3201' }, 55, 3)).toEqual([]);
    expect(run({ cfop: '3211', import_declaration: { number: '1', additions: [{ drawback: '20230000001' }] } }, 55, 3)).toEqual([]);
  });
  it('I29a-10 (334): CFOP 3127 needs the drawback number in each addition', () => {
    expect(run({ cfop: '3127', import_declaration: di, import_tax: ii }, 55, 3)).toEqual([['items[0].import_declaration.additions[0].drawback', 'I29a-10']]);
  });
  it('I50-10 (336), I53-10 (341), I51-10 (338): detExport', () => {
    const ind = { access_key: '3'.repeat(44), quantity: 1 };
    expect(run({ cfop: '5102', export_detail: { indirect: ind } }, 55, 1)).toEqual([['items[0].export_detail', 'I50-10']]);
    expect(run({ cfop: '7101', export_detail: { indirect: { ...ind, re_number: '12A' } } }, 55, 3)).toEqual([['items[0].export_detail.indirect.re_number', 'I53-10']]);
    expect(run({ cfop: '7127' }, 55, 3)).toEqual([['items[0].export_detail.drawback', 'I51-10']]);
    expect(run({ cfop: '7127', export_detail: { drawback: '20230000001' } }, 55, 3)).toEqual([]);
  });
  it('W11-10 (601): vII is the sum of the items\' II/vII', () => {
    // By hand: 140.10 + 0.20 = 140.30 (decimal sum, no float drift).
    expect(totalII([{ cfop: '3102', import_tax: { ...ii, value: 140.1 } }, { cfop: '3102', import_tax: { ...ii, value: 0.2 } }, { cfop: '3201' }])).toBe(140.3);
  });
});
