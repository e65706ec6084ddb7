import { checkNumber, checkText, fail, MONEY, type Errors } from '../../../fiscal/layout/field-rules.js';
import { CARD_BRANDS, CARD_METHODS, PAYMENT_METHODS } from '../../../fiscal/layout/payment-codes.js';
import { isValidCnpj } from '../../../kernel/tax-id.js';
import type { SalePayment } from './sale-item.js';

// One tender of a goods sale (detPag), checked the same way for models 55 and 65.

export function validatePayment(errors: Errors, at: string, p: SalePayment): void {
  if (!Object.hasOwn(PAYMENT_METHODS, p.method)) {
    return fail(errors, `${at}.method`, `must be one of ${Object.keys(PAYMENT_METHODS).join(', ')}`);
  }
  if (p.method === 'sem_pagamento') {
    if (p.amount !== 0) fail(errors, `${at}.amount`, 'must be 0 for sem_pagamento');
  } else checkNumber(errors, `${at}.amount`, p.amount, MONEY);
  if (p.card_brand !== undefined) {
    if (!Object.hasOwn(CARD_BRANDS, p.card_brand)) fail(errors, `${at}.card_brand`, `must be one of ${Object.keys(CARD_BRANDS).join(', ')}`);
    else if (!CARD_METHODS.has(p.method)) fail(errors, `${at}.card_brand`, `is only used with card payments, not ${p.method}`);
  }
  if (p.acquirer_cnpj !== undefined && !isValidCnpj(p.acquirer_cnpj)) fail(errors, `${at}.acquirer_cnpj`, 'is not a valid CNPJ');
  checkText(errors, `${at}.card_authorization`, p.card_authorization, 1, 128, false);
  checkText(errors, `${at}.description`, p.description, 2, 60, p.method === 'outros');
  if (p.description !== undefined && p.method !== 'outros') fail(errors, `${at}.description`, 'is only used with method outros');
  // Integrated (TEF) card payments identify the acquirer, brand and authorization (card group, tpIntegra 1).
  if (p.integrated && (p.method === 'credito' || p.method === 'debito')) {
    if (p.acquirer_cnpj === undefined) fail(errors, `${at}.acquirer_cnpj`, 'is required for an integrated (TEF) card payment');
    if (p.card_brand === undefined) fail(errors, `${at}.card_brand`, 'is required for an integrated (TEF) card payment');
    if (p.card_authorization === undefined) fail(errors, `${at}.card_authorization`, 'is required for an integrated (TEF) card payment');
  }
}
