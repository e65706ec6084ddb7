import { REPASSE_FUEL_CODES } from '../../../fiscal/layout/anp-products.js';
import { fail, type Errors } from '../../../fiscal/layout/field-rules.js';
import { icmsCode } from '../../goods/domain/icms-codes.js';
import type { NfeItem } from './nfe-request.js';

/**
 * MOC N08-10 (858, NF-e): an item of a fuel under interstate repasse (cProdANP in the rule's list) with CST 60
 * must carry the ST already charged in the ICMSST group (st_repasse), not in ICMS60 (docs/fiscal/fuel.md).
 */
export function checkRepasseFuel(errors: Errors, at: string, item: NfeItem): void {
  if (item.fuel === undefined || !REPASSE_FUEL_CODES.has(item.fuel.anp_code)) return;
  if (icmsCode(item) === '60' && item.st_repasse === undefined) {
    fail(errors, `${at}.st_repasse`, `is required with CST 60 for ANP product ${item.fuel.anp_code}: this fuel's ST charged earlier goes in the ICMSST group, not in ICMS60 (MOC N08-10, 858)`, 'N08-10');
  }
}
