import { describe, expect, it } from 'vitest';
import type { Errors } from '../../../fiscal/layout/field-rules.js';
import { isValidCnpj } from '../../../kernel/tax-id.js';
import { checkExportDetail, checkImportItem, type ExportDetail, type ImportItem } from './validate-foreign-trade.js';

// docs/fiscal/vehicles-and-foreign-trade.md: the MOC rules for DI/II and detExport, on the request's shape
// (items[].import_declarations is a list of declarations).
const fields = (errors: Errors) => errors.map((e) => [e.field, e.rule]);
const importing = (it: ImportItem) => {
  const errors: Errors = [];
  checkImportItem(errors, 'items[0]', it, isValidCnpj);
  return fields(errors);
};
const exporting = (cfop: string, ex: ExportDetail | undefined, idDest: 1 | 2 | 3) => {
  const errors: Errors = [];
  checkExportDetail(errors, 'items[0]', cfop, ex, idDest);
  return fields(errors);
};
const di = { transport_mode: '4', intermediation: '1', additions: [{}] };
const ii = { base: 1000, customs_expenses: 0, value: 140, iof: 0 };

describe('checkImportItem', () => {
  it('I08-110 (525) / I08-130 (599): CFOP 3102 needs DI and II; 3201 needs neither; 3211 needs DI only', () => {
    expect(importing({ cfop: '3102' })).toEqual([['items[0].import_declarations', 'I08-110'], ['items[0].import_tax', 'I08-130']]);
    expect(importing({ cfop: '3102', import_declarations: [], import_tax: ii })).toEqual([['items[0].import_declarations', 'I08-110']]);
    expect(importing({ cfop: '3102', import_declarations: [di], import_tax: ii })).toEqual([]);
    expect(importing({ cfop: '3201' })).toEqual([]);
    expect(importing({ cfop: '3211', import_declarations: [{ ...di, additions: [{ drawback: '20230000001' }] }] })).toEqual([]);
  });
  it('I29a-10 (334): CFOP 3127 needs the drawback number in each addition of each declaration', () => {
    const two = [{ ...di, additions: [{ drawback: '20230000001' }] }, { ...di, additions: [{ drawback: '20230000002' }, {}] }];
    expect(importing({ cfop: '3127', import_declarations: two, import_tax: ii })).toEqual([['items[0].import_declarations[1].additions[1].drawback', 'I29a-10']]);
  });
  it('I23b-10 (330), I23d-10 (331), I23d-20 (332), I23e-10 (333): by sea, and on behalf of a buyer', () => {
    expect(importing({ cfop: '3102', import_declarations: [{ ...di, transport_mode: '1' }], import_tax: ii })).toEqual([['items[0].import_declarations[0].afrmm', 'I23b-10']]);
    expect(importing({ cfop: '3102', import_declarations: [{ ...di, intermediation: '2' }], import_tax: ii })).toEqual([
      ['items[0].import_declarations[0].buyer_cnpj', 'I23d-10'],
      ['items[0].import_declarations[0].third_party_uf', 'I23e-10'],
    ]);
    // 11.222.333/0001-81 has valid check digits; the last digit changed does not.
    expect(importing({ cfop: '3102', import_declarations: [{ ...di, intermediation: '3', buyer_cnpj: '11222333000181', third_party_uf: 'SP' }], import_tax: ii })).toEqual([]);
    expect(importing({ cfop: '3102', import_declarations: [{ ...di, intermediation: '3', buyer_cnpj: '11222333000182', third_party_uf: 'SP' }], import_tax: ii })).toEqual([['items[0].import_declarations[0].buyer_cnpj', 'I23d-20']]);
  });
});

describe('checkExportDetail', () => {
  it('I50-10 (336), I53-10 (341), I51-10 (338): detExport', () => {
    const ind = { access_key: '3'.repeat(44), quantity: 1 };
    expect(exporting('5102', { indirect: ind }, 1)).toEqual([['items[0].export_detail', 'I50-10']]);
    expect(exporting('7101', { indirect: { ...ind, re_number: '12A' } }, 3)).toEqual([['items[0].export_detail.indirect.re_number', 'I53-10']]);
    expect(exporting('7127', undefined, 3)).toEqual([['items[0].export_detail.drawback', 'I51-10']]);
    expect(exporting('7127', { drawback: '20230000001' }, 3)).toEqual([]);
  });
});
