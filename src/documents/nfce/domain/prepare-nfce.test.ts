import { describe, expect, it } from 'vitest';
import { NUMERIC_ISSUER, simpleSale, testContext } from '../../../../test/support/nfce-fixtures.js';
import { csrtHash } from '../../../fiscal/xml/nfe/inf-nfe.js';
import { buildNfce, buildPreparedNfce } from './build-nfce.js';
import { prepareNfce } from './prepare-nfce.js';
import type { Sale } from './sale.js';
import { validateSale } from './validate-sale.js';

/**
 * The sale with its items counting the reads of their quantity (each computation of the items reads
 * it once per item). A proxy, not a module mock: vitest runs these files with isolate: false, where
 * vi.mock neither reliably applies nor stays in its own file.
 */
function counting(sale: Sale): { sale: Sale; reads: () => number } {
  let n = 0;
  const items = sale.items.map((item) => new Proxy(item, { get: (t, p, r) => (p === 'quantity' && n++, Reflect.get(t, p, r)) }));
  return { sale: { ...sale, items }, reads: () => n };
}

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

  it('computes the items once per sale (the issue: three times), however many numbers it is built for', () => {
    const ctx = testContext(NUMERIC_ISSUER);
    const validated = counting(simpleSale());
    expect(validateSale(validated.sale, NUMERIC_ISSUER)).toEqual([]);
    // validateSale is the checks plus the one computation the totals rules need; prepareNfce does no more.
    const prepared = counting(simpleSale());
    const result = prepareNfce(prepared.sale, ctx);
    if (!result.ok) throw new Error('the fixture sale is valid');
    expect(prepared.reads()).toBe(validated.reads());
    for (const nNF of [1, 2, 3]) buildPreparedNfce(result.nfce, { ...ctx, nNF });
    expect(prepared.reads()).toBe(validated.reads());
    const oneCall = counting(simpleSale());
    buildNfce(oneCall.sale, ctx);
    expect(oneCall.reads()).toBe(validated.reads());
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
