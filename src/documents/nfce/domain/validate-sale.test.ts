import { describe, expect, it } from 'vitest';
import { ALPHANUMERIC_ISSUER, NUMERIC_ISSUER, simpleSale } from '../../../../test/support/nfce-fixtures.js';
import type { Issuer } from '../../goods/domain/issuer-context.js';
import type { Sale, SaleItem } from './sale.js';
import { validateSale } from './validate-sale.js';

const simplesIssuer: Issuer = { ...NUMERIC_ISSUER, crt: 1 };
const base: SaleItem = { description: 'Cafe', quantity: 1, unit_price: 10, ncm: '09012100', cfop: '5102', unit: 'UN', cst_icms: '102' };
const sale = (items: SaleItem[], extra: Partial<Sale> = {}): Sale => ({ issuer_id: 'iss_1', external_ref: 'r', items, payment: { method: 'dinheiro', amount: 1000 }, ...extra });
const fields = (s: Sale, issuer = simplesIssuer) => validateSale(s, issuer).map((e) => e.field);
const messageOf = (s: Sale, field: string, issuer = simplesIssuer) => validateSale(s, issuer).find((e) => e.field === field)?.message ?? '';

describe('validateSale', () => {
  it('accepts the fixture sale', () => {
    expect(validateSale(simpleSale(), NUMERIC_ISSUER)).toEqual([]);
    expect(validateSale(sale([base]), ALPHANUMERIC_ISSUER)).toEqual([]);
  });

  it('names the field when the ICMS code does not fit the issuer regime', () => {
    expect(messageOf(sale([base, { ...base, cst_icms: '00', pICMS: 18 }]), 'items[1].cst_icms')).toMatch(/CST for regime-normal.*Simples Nacional \(CRT 1\).*CSOSN/);
    expect(messageOf(sale([base]), 'items[0].cst_icms', NUMERIC_ISSUER)).toMatch(/CSOSN for Simples.*regime normal \(CRT 3\).*CST/);
    const { cst_icms: _omit, ...noCode } = base;
    expect(messageOf(sale([{ ...noCode, csosn: '00' }]), 'items[0].csosn')).toMatch(/CST for regime-normal/);
  });

  it('refuses CST 50 and 51 citing the NFC-e rejections 766 and 740', () => {
    expect(messageOf(sale([{ ...base, cst_icms: '50' }]), 'items[0].cst_icms', NUMERIC_ISSUER)).toMatch(/766/);
    expect(messageOf(sale([{ ...base, cst_icms: '51' }]), 'items[0].cst_icms', NUMERIC_ISSUER)).toMatch(/740/);
  });

  it('asks for the fields each ICMS code needs', () => {
    const n = (item: Partial<SaleItem>) => fields(sale([{ ...base, ...item }]), NUMERIC_ISSUER);
    expect(n({ cst_icms: '00' })).toContain('items[0].pICMS');
    expect(n({ cst_icms: '20', pICMS: 18 })).toContain('items[0].icms_base_reduction');
    expect(n({ cst_icms: '10', pICMS: 18 })).toContain('items[0].st');
    expect(n({ cst_icms: '40', st: { rate: 18 } })).toContain('items[0].st');
    expect(fields(sale([{ ...base, cst_icms: '101' }]))).toContain('items[0].simples_credit_rate');
  });

  it('checks NCM, CFOP, GTIN, decimals and amounts', () => {
    const errs = fields(sale([{ ...base, ncm: '0901', cfop: '6102', gtin: '7891000315508', quantity: 1.23456, unit_price: 0 }]));
    expect(errs).toEqual(expect.arrayContaining(['items[0].ncm', 'items[0].cfop', 'items[0].gtin', 'items[0].quantity', 'items[0].unit_price']));
    expect(fields(sale([{ ...base, gtin: '7891000315507' }]))).toEqual([]);
    expect(fields(sale([{ ...base, unit_price: 0.0000000001 }]))).toEqual(['items[0].unit_price']);
    expect(fields(sale([{ ...base, discount: 10.01 }]))).toEqual(['items[0].discount']);
    expect(fields(sale([base], { discount: 10.01 }))).toEqual(['discount']);
  });

  it('refuses text the layout cannot carry, naming the characters, and accepts Latin-1', () => {
    expect(messageOf(sale([{ ...base, description: 'Cafe ☕' }]), 'items[0].description')).toMatch(/☕/);
    expect(fields(sale([{ ...base, description: '  Pão   de  “queijo” – São João\n' }]))).toEqual([]);
    expect(fields(sale([{ ...base, description: '   ' }]))).toEqual(['items[0].description']);
  });

  it('validates consumer CPF/CNPJ check digits and the delivery address', () => {
    expect(fields(sale([base], { consumer: { cpf: '52998224726' } }))).toEqual(['consumer.cpf']);
    expect(fields(sale([base], { consumer: { cnpj: 'PC3D315K000193' } }))).toEqual([]);
    expect(fields(sale([base], { home_delivery: true, consumer: { cpf: '52998224725' } }))).toEqual(['consumer.name', 'consumer.address', 'transporte.transportadora']);
    const address = { street: 'Rua A', number: '1', district: 'Centro', city_code: '4314902', city: 'Porto Alegre', uf: 'RS' };
    expect(messageOf(sale([base], { consumer: { cpf: '52998224725', address } }), 'consumer.address.uf')).toMatch(/must be SP/);
  });

  it('checks that payments cover the total and that only cash gives change', () => {
    expect(messageOf(sale([base], { payment: { method: 'pix', amount: 9.99 } }), 'payment')).toMatch(/is R\$ 9.99 but the total is R\$ 10.00/);
    expect(messageOf(sale([base], { payment: { method: 'credito', amount: 12 } }), 'payment')).toMatch(/only cash/);
    expect(fields(sale([base], { payment: undefined, payments: [{ method: 'credito', amount: 5 }, { method: 'dinheiro', amount: 10 }] }))).toEqual([]);
    expect(fields(sale([base], { payment: undefined, payments: [{ method: 'credito', amount: 9 }, { method: 'dinheiro', amount: 0.5 }] }))).toEqual(['payments']);
    expect(fields(sale([base], { payment: undefined }))).toEqual(['payment']);
    // MOC YA02-50 (436): an NFC-e is not paid with outros at all.
    expect(fields(sale([base], { payment: { method: 'outros', amount: 10 } }))).toEqual(['payment.description', 'payment.method']);
    expect(fields(sale([base], { payment: { method: 'pix', amount: 10, description: 'Pix loja' } }))).toEqual(['payment.description']);
    expect(fields(sale([base], { payment: { method: 'dinheiro', amount: 10, card_brand: 'visa' } }))).toEqual(['payment.card_brand']);
    expect(fields(sale([base], { payment: { method: 'credito', amount: 10, integrated: true } }))).toEqual(['payment.acquirer_cnpj', 'payment.card_brand', 'payment.card_authorization']);
  });

  it('words the payment totals so that the answer, field then message, reads as one sentence', () => {
    // The error envelope's message is `${field} ${message}` (it read "payment payments add up to ...").
    const sentence = (s: Sale, field: string) => `${field} ${messageOf(s, field)}`;
    const two = (a: number, b: number): Partial<Sale> => ({ payment: undefined, payments: [{ method: 'credito', amount: a }, { method: 'dinheiro', amount: b }] });
    expect(sentence(sale([base], { payment: { method: 'pix', amount: 9.99 } }), 'payment')).toBe('payment is R$ 9.99 but the total is R$ 10.00');
    expect(sentence(sale([base], two(9, 0.5)), 'payments')).toBe('payments add up to R$ 9.50 but the total is R$ 10.00');
    expect(sentence(sale([base], { payment: { method: 'credito', amount: 12 } }), 'payment')).toBe(
      'payment exceeds the total R$ 10.00 by R$ 2.00; only cash (dinheiro) can be overpaid and given back as change',
    );
    expect(sentence(sale([base], { payment: undefined, payments: [{ method: 'credito', amount: 11 }, { method: 'pix', amount: 1 }] }), 'payments')).toBe(
      'payments exceed the total R$ 10.00 by R$ 2.00; only cash (dinheiro) can be overpaid and given back as change',
    );
  });

  it('requires the consumer from R$ 10.000,00 (Ajuste SINIEF 19/16)', () => {
    const big = { ...base, unit_price: 10000 };
    expect(fields(sale([big], { payment: { method: 'pix', amount: 10000 } }))).toEqual(['consumer.cpf']);
    expect(fields(sale([{ ...big, unit_price: 9999.99 }], { payment: { method: 'pix', amount: 9999.99 } }))).toEqual([]);
    expect(fields(sale([big], { payment: { method: 'pix', amount: 10000 }, consumer: { cpf: '52998224725' } }))).toEqual([]);
    // Above R$ 10.000,00 the address too (MOC W16-60, 752).
    const above = { ...base, unit_price: 10000.01 };
    expect(fields(sale([above], { payment: { method: 'pix', amount: 10000.01 }, consumer: { cpf: '52998224725' } }))).toEqual(['consumer.address']);
  });

  it('caps a note at 990 items', () => {
    expect(fields(sale(Array.from({ length: 991 }, () => base)))).toContain('items');
  });
});
