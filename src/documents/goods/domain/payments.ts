import type { DetPagModel } from '../../../fiscal/xml/nfe/model.js';
import { cleanTaxId } from '../../../kernel/tax-id.js';
import { toCents } from '../../../kernel/decimal.js';
import { CARD_BRANDS, CARD_GROUP_METHODS, CHANGE_METHODS, PAYMENT_METHODS } from '../../../fiscal/layout/payment-codes.js';
import type { SalePayment, SaleTenders } from './sale-item.js';
import { layoutText } from '../../../fiscal/layout/text.js';

export function salePayments(sale: SaleTenders): SalePayment[] {
  return sale.payments ?? (sale.payment ? [sale.payment] : []);
}

export interface PaymentPlan {
  detPag: DetPagModel[];
  /** Change returned in cash: sum(vPag) - vNF (767: payments minus change equal vNF). */
  vTroco: number;
}

export function paymentPlan(payments: readonly SalePayment[], vNF: number): PaymentPlan {
  const detPag = payments.map((p): DetPagModel => {
    const model: DetPagModel = { tPag: PAYMENT_METHODS[p.method], vPag: toCents(p.amount) };
    // xPag describes the "99 - outros" tender; the other codes are self-describing.
    if (p.method === 'outros') model.xPag = layoutText(p.description ?? 'Outros');
    if (CARD_GROUP_METHODS.has(p.method)) {
      model.card = { tpIntegra: p.integrated ? 1 : 2 };
      if (p.acquirer_cnpj) model.card.CNPJ = cleanTaxId(p.acquirer_cnpj);
      if (p.card_brand) model.card.tBand = CARD_BRANDS[p.card_brand];
      if (p.card_authorization) model.card.cAut = layoutText(p.card_authorization);
    }
    return model;
  });
  const paid = detPag.reduce((acc, p) => acc + p.vPag, 0);
  return { detPag, vTroco: Math.max(0, paid - vNF) };
}

/** Cash paid (the only tender that may exceed the total and give change). */
export function changeCapacity(payments: readonly SalePayment[]): number {
  return payments.filter((p) => CHANGE_METHODS.has(p.method)).reduce((acc, p) => acc + toCents(p.amount), 0);
}
