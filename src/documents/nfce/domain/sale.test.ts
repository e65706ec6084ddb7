import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { simpleSale } from '../../../../test/support/nfce-fixtures.js';
import { SaleSchema } from './sale.js';
import { toLayoutText } from '../../../fiscal/layout/text.js';

describe('SaleSchema (reused by the HTTP route)', () => {
  it('accepts a SPEC-shaped request and the extended one', () => {
    expect(Value.Check(SaleSchema, simpleSale())).toBe(true);
    expect(Value.Check(SaleSchema, simpleSale({ payment: undefined, payments: [{ method: 'pix', amount: 10 }, { method: 'credito', amount: 5, card_brand: 'visa' }], consumer: { cpf: '52998224725' } }))).toBe(true);
  });
  it('refuses unknown methods, brands and fields', () => {
    expect(Value.Check(SaleSchema, simpleSale({ payment: { method: 'bitcoin' as never, amount: 1 } }))).toBe(false);
    expect(Value.Check(SaleSchema, simpleSale({ payment: { method: 'credito', amount: 1, card_brand: 'nubank' as never } }))).toBe(false);
    expect(Value.Check(SaleSchema, { ...simpleSale(), discount_pct: 3 })).toBe(false);
  });
  it('documents its fields', () => {
    expect((SaleSchema.properties.items.items.properties.ncm as { description?: string }).description).toMatch(/8 digits/);
  });
});

describe('layout text (TString, U+0020-U+00FF)', () => {
  it('normalizes whitespace and transliterates typographic characters', () => {
    expect(toLayoutText('  Caf\u00e9\t com\n\n leite  ')).toBe('Café com leite');
    expect(toLayoutText('\u201cbom\u201d \u2013 d\u2019\u00e1gua\u2026')).toBe('"bom" - d\'água...');
    expect(toLayoutText('Erd\u0151s')).toBe('Erdos');
  });
  it('refuses what has no Latin-1 spelling', () => {
    expect(toLayoutText('chá 🍵')).toBeNull();
    expect(toLayoutText('北京')).toBeNull();
    expect(toLayoutText('bell\u0007')).toBeNull();
  });
});
