import { timeZoneOf } from '../../src/fiscal/layout/ibge.js';
import { localDateTime } from '../../src/fiscal/layout/local-time.js';
import type { SaleItem } from '../../src/documents/goods/domain/sale-item.js';

/**
 * A made-up CBS rate for notes dated 2027: the real one (the Senate's reference rate minus 0.1
 * point, LC 214/2025 art. 347) is not published, so the gateway asks the client for it.
 */
export const TEST_CBS_RATE_2027 = 8.8;

/**
 * The reform rates an item may send on the note's local date (docs/fiscal/tax-reform.md, "Rates by
 * date"): the year's own IBS rates are known, so none is sent; the CBS rate is sent only in 2027,
 * when the gateway does not know it (an export, CST 410, sends none). From 2027 no item sends `pis`
 * nor `cofins`: both contributions end with 2026 and the gateway refuses them (pis-cofins-schedule.ts).
 */
export function fitReformRates(items: SaleItem[], emittedAt: Date, cityCode: string, uf: string): void {
  const year = localDateTime(emittedAt, timeZoneOf(cityCode, uf)).year;
  for (const item of items) {
    if (item.reform) {
      delete item.reform.ibs_state_rate;
      delete item.reform.ibs_municipal_rate;
      delete item.reform.cbs_rate;
    }
    const immune = item.reform?.cst === '410' || (item.reform?.cst === undefined && item.cfop.startsWith('7'));
    if (year >= 2027 && !immune) item.reform = { ...item.reform, cbs_rate: TEST_CBS_RATE_2027 };
    if (year >= 2027) {
      delete item.pis;
      delete item.cofins;
    }
  }
}
