import { formatCents } from '../../../kernel/decimal.js';
import { fail, type Errors } from '../../../fiscal/layout/field-rules.js';
import type { SalePayment } from '../../goods/domain/sale-item.js';

// MOC 7.0 rules that bound an NFC-e by its total and its tenders (groups W and YA).

/** W16-30 (780): the NFC-e's default ceiling (the state may set another; only the authority knows it). */
export const NFCE_CEILING = 20_000_000; // cents

/** MOC W16-30 (780): an NFC-e above R$ 200.000,00 is refused; such a sale is an NF-e (model 55). */
export function checkNfceCeiling(errors: Errors, vNF: number | undefined): void {
  if (vNF !== undefined && vNF > NFCE_CEILING) {
    fail(errors, 'items', `add up to R$ ${formatCents(vNF)}: an NFC-e may not exceed R$ 200000.00 (MOC W16-30, 780); issue an NF-e (model 55) for this sale`, 'W16-30');
  }
}

/**
 * MOC YA02-40 (899) and YA02-50 (436): an NFC-e is paid neither "sem pagamento" (90) nor "outros" (99):
 * name the method the consumer used (a sale of R$ 0.00 is paid with amount 0).
 */
export function checkNfceTenders(errors: Errors, list: readonly SalePayment[], multiple: boolean): void {
  list.forEach((p, i) => {
    const at = `${multiple ? `payments[${i}]` : 'payment'}.method`;
    if (p.method === 'sem_pagamento') fail(errors, at, 'cannot be sem_pagamento in an NFC-e (MOC YA02-40, 899): give the method the consumer paid with (amount 0 for a sale of R$ 0.00)', 'YA02-40');
    if (p.method === 'outros') fail(errors, at, 'cannot be outros in an NFC-e (MOC YA02-50, 436): give the method the consumer paid with', 'YA02-50');
  });
}
