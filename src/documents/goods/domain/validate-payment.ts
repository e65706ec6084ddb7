import { checkNumber, checkText, fail, MONEY, OPTIONAL_MONEY, type Errors } from '../../../fiscal/layout/field-rules.js';
import { CARD_BRANDS, CARD_GROUP_METHODS, CARD_METHODS, PAYMENT_METHODS } from '../../../fiscal/layout/payment-codes.js';
import { isValidCnpj } from '../../../kernel/tax-id.js';
import type { SalePayment } from './sale-item.js';

// One tender of a goods sale (detPag), checked the same way for models 55 and 65.

/** `zeroAllowed`: the note's total is R$ 0.00, so a tender of amount 0 is what it is paid with (NFC-e). */
export function validatePayment(errors: Errors, at: string, p: SalePayment, zeroAllowed = false): void {
  if (!Object.hasOwn(PAYMENT_METHODS, p.method)) {
    return fail(errors, `${at}.method`, `must be one of ${Object.keys(PAYMENT_METHODS).join(', ')}`);
  }
  if (p.method === 'sem_pagamento') {
    if (p.amount !== 0) fail(errors, `${at}.amount`, 'must be 0 for sem_pagamento');
  } else checkNumber(errors, `${at}.amount`, p.amount, zeroAllowed ? { ...OPTIONAL_MONEY, required: true } : MONEY);
  if (p.card_brand !== undefined) {
    if (!Object.hasOwn(CARD_BRANDS, p.card_brand)) fail(errors, `${at}.card_brand`, `must be one of ${Object.keys(CARD_BRANDS).join(', ')}`);
    else if (!CARD_METHODS.has(p.method)) fail(errors, `${at}.card_brand`, `is only used with card payments, not ${p.method}`);
  }
  // MOC YA05-20 (437): the payment institution's CNPJ, when given, is a real one.
  if (p.acquirer_cnpj !== undefined && !isValidCnpj(p.acquirer_cnpj)) fail(errors, `${at}.acquirer_cnpj`, 'is not a valid CNPJ (MOC YA05-20, 437)', 'YA05-20');
  checkText(errors, `${at}.card_authorization`, p.card_authorization, 1, 128, false);
  checkText(errors, `${at}.description`, p.description, 2, 60, p.method === 'outros');
  if (p.description !== undefined && p.method !== 'outros') fail(errors, `${at}.description`, 'is only used with method outros');
  // Integrated (TEF) card payments identify the acquirer, brand and authorization (card group, tpIntegra 1).
  // MOC YA05-10 (392): any card group with tpIntegra 1 (cards, PIX) names the institution's CNPJ and cAut.
  if (p.integrated && CARD_GROUP_METHODS.has(p.method)) {
    if (p.acquirer_cnpj === undefined) fail(errors, `${at}.acquirer_cnpj`, 'is required for an integrated (TEF) payment: the CNPJ of the payment institution (MOC YA05-10, 392)', 'YA05-10');
    if (p.card_brand === undefined && CARD_METHODS.has(p.method)) fail(errors, `${at}.card_brand`, 'is required for an integrated (TEF) card payment');
    if (p.card_authorization === undefined) fail(errors, `${at}.card_authorization`, 'is required for an integrated (TEF) payment: the authorization code (MOC YA05-10, 392)', 'YA05-10');
  }
}
