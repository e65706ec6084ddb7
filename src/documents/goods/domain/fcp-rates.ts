import { fail, type Errors } from '../../../fiscal/layout/field-rules.js';
import type { SaleItem } from './sale-item.js';

// NT 2016.002: an FCP rate is informed only for goods subject to the fund, so never as zero.

/** MOC N17b-10 (880): pFCP 0; MOC N23b-10 (881): pFCPST 0. */
export function checkFcpRates(errors: Errors, at: string, item: SaleItem): void {
  if (item.fcp_rate === 0) fail(errors, `${at}.fcp_rate`, 'must be greater than 0; leave it out when the item is not subject to the poverty fund (FCP)', 'N17b-10');
  if (item.st?.fcp_rate === 0) fail(errors, `${at}.st.fcp_rate`, 'must be greater than 0; leave it out when the item is not subject to the poverty fund on ST (FCP ST)', 'N23b-10');
}
