import { describe, expect, it, vi } from 'vitest';
import { NUMERIC_ISSUER, simpleSale, testContext } from '../../../../test/support/nfce-fixtures.js';
import { csrtHash } from '../../../fiscal/xml/nfe/inf-nfe.js';
import { buildNfce, buildPreparedNfce } from './build-nfce.js';
import { computeItems } from './compute-items.js';
import type * as ComputeItemsModule from './compute-items.js';
import { prepareNfce } from './prepare-nfce.js';
import type { Sale } from './sale.js';
import { validateSale } from './validate-sale.js';

// Counts the item computations (the issue: a sale was computed three times on the happy path).
vi.mock('./compute-items.js', async (importOriginal) => {
  const original = await importOriginal<typeof ComputeItemsModule>();
  return { ...original, computeItems: vi.fn(original.computeItems) };
});
const computations = () => vi.mocked(computeItems).mock.calls.length;

const respTec = { cnpj: '10422724000187', contato: 'Suporte', email: 'dev@example.com', fone: '1130000000', csrt: { id: '1', token: 'G8063VRTNDMO886SFNK5LDUDEI24XJ22YIPO' } };
const text = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));

describe('prepareNfce', () => {
  it('refuses an invalid sale with the errors validateSale gives, in the same order', () => {
    const sales: Sale[] = [
      simpleSale({ items: [{ ...simpleSale().items[0]!, ncm: '123' }] }),
      simpleSale({ payment: { method: 'pix', amount: 1 } }),
      simpleSale({ discount: 1000 }),
      simpleSale({ external_ref: '', consumer: { cpf: '1' }, payment: { method: 'sem_pagamento', amount: 0 } }),
      simpleSale({ items: [] }),
    ];
    for (const sale of sales) {
      const errors = validateSale(sale, NUMERIC_ISSUER);
      expect(errors).not.toEqual([]);
      expect(prepareNfce(sale, testContext(NUMERIC_ISSUER))).toEqual({ ok: false, errors });
    }
  });

  it('computes the items once per sale, however many numbers it is built for', () => {
    const ctx = testContext(NUMERIC_ISSUER);
    const before = computations();
    const prepared = prepareNfce(simpleSale(), ctx);
    if (!prepared.ok) throw new Error('the fixture sale is valid');
    for (const nNF of [1, 2, 3]) buildPreparedNfce(prepared.nfce, { ...ctx, nNF });
    expect(computations() - before).toBe(1);
    buildNfce(simpleSale(), ctx);
    expect(computations() - before).toBe(2);
  });

  it('built for several numbers, in any order, gives what buildNfce gives for each, and stays unchanged', () => {
    const sale = simpleSale({ consumer: { cpf: '52998224725' } });
    const ctx = testContext(NUMERIC_ISSUER, { tpAmb: 1, tpEmis: 9, contingency: { at: new Date('2026-07-15T14:00:00Z'), reason: 'Sem conexao' }, respTec });
    const prepared = prepareNfce(sale, ctx);
    if (!prepared.ok) throw new Error('the sale is valid');
    const before = text(prepared);
    const at = (nNF: number) => ({ ...ctx, nNF, cNF: '40521937' });
    const built = [7, 8, 7].map((nNF) => buildPreparedNfce(prepared.nfce, at(nNF)));
    expect(text(prepared)).toBe(before);
    expect(built[0]).toEqual(buildNfce(sale, at(7)));
    expect(built[1]).toEqual(buildNfce(sale, at(8)));
    expect(built[2]).toEqual(built[0]);
    expect(built[0]!.accessKey).not.toBe(built[1]!.accessKey);
    for (const b of built) expect(b.xml).toContain(`<hashCSRT>${csrtHash(respTec.csrt.token, b.accessKey)}</hashCSRT>`);
  });
});
