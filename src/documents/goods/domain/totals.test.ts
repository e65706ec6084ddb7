import { describe, expect, it } from 'vitest';
import { formatCents, formatTrimmed, spreadProportionally } from '../../../kernel/decimal.js';
import { computeItems } from './compute-items.js';
import { paymentPlan } from './payments.js';
import type { SaleItem, SaleLines, SaleTenders } from './sale-item.js';
import { itemAmounts, itemValue } from './totals.js';

const item = (quantity: number, unit_price: number, extra: Partial<SaleItem> = {}): SaleItem => ({
  description: 'x', quantity, unit_price, ncm: '09012100', cfop: '5102', unit: 'UN', cst_icms: '102', ...extra,
});

describe('item value: round(qCom x vUnCom, 2) in exact arithmetic', () => {
  it('rounds half up without float error', () => {
    expect(itemValue(3, 0.1).vProd).toBe(30); // 0.30, where 3 * 0.1 = 0.30000000000000004 in floats
    expect(itemValue(0.355, 16.99).vProd).toBe(603); // 6.03145 -> 6.03
    expect(itemValue(1.5, 0.33).vProd).toBe(50); // 0.495 -> 0.50 (half up)
    expect(itemValue(0.0001, 0.0000000001).vProd).toBe(0);
    expect(itemValue(9999.9999, 1234.5678901234).vProd).toBe(1234567878);
  });
  it('writes unit prices with the decimals they carry (2 to 10)', () => {
    expect(formatTrimmed(itemValue(1, 18.9).p10, 10, 2)).toBe('18.90');
    expect(formatTrimmed(itemValue(1, 0.0123456789).p10, 10, 2)).toBe('0.0123456789');
  });
});

describe('discount spread', () => {
  it('spreads in proportion and puts the remainder on the largest item', () => {
    expect(spreadProportionally(100, [1000, 2000, 3000])).toEqual([16, 33, 51]);
    expect(spreadProportionally(1, [100, 100, 100])).toEqual([1, 0, 0]);
    // A remainder larger than the largest weight's room spills over: no share above its weight.
    const tiny = spreadProportionally(990, Array.from({ length: 100 }, () => 10));
    expect(tiny.reduce((a, b) => a + b, 0)).toBe(990);
    expect(Math.max(...tiny)).toBe(10);
    const shares = spreadProportionally(997, [333, 3333, 33, 1]);
    expect(shares.reduce((a, b) => a + b)).toBe(997);
    expect(shares[1]).toBe(Math.max(...shares));
  });
  it('never gives an item a discount above its value (100 items of R$ 0.10, R$ 9.90 off: was vBC -0.89)', () => {
    const amounts = itemAmounts(Array.from({ length: 100 }, () => item(1, 0.1)), 9.9);
    expect(amounts.reduce((a, b) => a + b.vDesc, 0)).toBe(990);
    expect(Math.min(...amounts.map((a) => a.net))).toBe(0);
  });
  it('adds the sale discount to each item discount and the totals match the items exactly', () => {
    const items = [item(1, 10), item(3, 3.33, { discount: 1 }), item(2, 0.99)];
    const amounts = itemAmounts(items, 1.11);
    expect(amounts.map((a) => a.vProd)).toEqual([1000, 999, 198]);
    expect(amounts.map((a) => a.vDesc)).toEqual([54, 100 + 47, 10]);
    expect(amounts.reduce((a, b) => a + b.vDesc, 0)).toBe(100 + 111);
    const sale: SaleLines & SaleTenders = { items, discount: 1.11, payment: { method: 'dinheiro', amount: 50 } };
    const { total } = computeItems(sale, { crt: 1, tpAmb: 1 });
    expect([total.vProd, total.vDesc, total.vNF]).toEqual([2197, 211, 1986]);
  });
});

describe('vNF and change', () => {
  it('adds ST and FCP-ST to vNF (vProd - vDesc + vST + vFCPST)', () => {
    const sale: SaleLines & SaleTenders = {
      payment: { method: 'dinheiro', amount: 200 },
      items: [item(1, 100, { cst_icms: '10', pICMS: 18, st: { rate: 18, mva: 40, fcp_rate: 2 } })],
    };
    const { total, det } = computeItems(sale, { crt: 3, tpAmb: 1 });
    // ST base 140.00; ST = 140 x 18% - 18.00 own ICMS = 7.20; FCP-ST = 2.80
    expect(det[0]!.icms.st).toMatchObject({ vBCST: 14000, vICMSST: 720, fcp: { vFCPST: 280 } });
    expect(total.vNF).toBe(10000 + 720 + 280);
  });
  it('computes change from cash so that payments minus change equal vNF (767)', () => {
    const plan = paymentPlan([{ method: 'credito', amount: 30, card_brand: 'visa' }, { method: 'dinheiro', amount: 20 }], 4383);
    expect(plan.vTroco).toBe(617);
    expect(formatCents(plan.detPag.reduce((a, p) => a + p.vPag, 0) - plan.vTroco)).toBe('43.83');
    expect(plan.detPag[0]).toEqual({ tPag: '03', vPag: 3000, card: { tpIntegra: 2, tBand: '01' } });
    expect(plan.detPag[1]).toEqual({ tPag: '01', vPag: 2000 });
  });
});
