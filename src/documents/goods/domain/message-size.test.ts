import { describe, expect, it } from 'vitest';
import { NUMERIC_ISSUER, simpleSale, testContext } from '../../../../test/support/nfce-fixtures.js';
import { buildEnviNFe } from '../../../fiscal/sefaz/request-payloads.js';
import { buildPreparedNfce } from '../../nfce/domain/build-nfce.js';
import { prepareNfce } from '../../nfce/domain/prepare-nfce.js';
import { AROUND_INF_NFE_BYTES, MAX_MESSAGE_BYTES } from './message-size.js';

const lotBytes = (xml: string) => Buffer.byteLength(buildEnviNFe(xml, 1), 'utf8');

/** A sale of `n` items with the longest texts, paid in cash, to an identified consumer with an address (R$ 10,000 or more: MOC W16-40, W16-60). */
function bigSale(n: number) {
  const base = simpleSale();
  const item = { ...base.items[0]!, description: 'D'.repeat(120), additional_info: 'I'.repeat(500) };
  return simpleSale({ items: Array.from({ length: n }, () => ({ ...item })), payment: { method: 'dinheiro', amount: 1_000_000 }, consumer: { cpf: '52998224725', address: { street: 'Rua Dois', number: '22', district: 'Bairro', city_code: '3550308', city: 'Sao Paulo', uf: 'SP', cep: '01001000' } } });
}

describe('MOC B01 (214): a lot above 500 KB', () => {
  it('is refused before numbering, naming items, by a measure at most AROUND_INF_NFE_BYTES above the lot', () => {
    const ctx = testContext(NUMERIC_ISSUER, { tpEmis: 9, contingency: { at: new Date('2026-07-15T15:00:00Z'), reason: 'x'.repeat(256) }, verProc: 'v'.repeat(20) });
    // The widest lot that still passes: its real size is below the limit and close to the measure.
    let fits = 1;
    for (let n = 512; n >= 1; n = Math.floor(n / 2)) if (prepareNfce(bigSale(fits + n), ctx).ok) fits += n;
    const prepared = prepareNfce(bigSale(fits), ctx);
    if (!prepared.ok) throw new Error('unreachable');
    const size = lotBytes(buildPreparedNfce(prepared.nfce, { ...ctx, nNF: 999_999_999, serie: 999 }).xml);
    expect(size).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
    expect(MAX_MESSAGE_BYTES - size).toBeLessThan(AROUND_INF_NFE_BYTES + 2 * 1100);
    const refused = prepareNfce(bigSale(fits + 1), ctx);
    expect(refused.ok ? [] : refused.errors).toEqual([expect.objectContaining({ field: 'items', rule: 'B01' })]);
  });
});
