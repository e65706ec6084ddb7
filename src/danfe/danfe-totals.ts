// Division IV: totals, then the payment methods with their amounts and the change (troco).
import { formatCents, formatMoney, toCents } from './br-format.js';
import type { DanfeContext } from './danfe-context.js';
import { paymentName } from './payment-names.js';
import type { TextStyle } from './receipt-layout.js';

/** vTroco when informed; 3.10 notes had no vTroco, so the overpayment is the change. */
export function changeCents(ctx: Pick<DanfeContext, 'input'>): number {
  const { input } = ctx;
  if (input.change !== undefined) return toCents(input.change);
  const paid = input.payments.reduce((acc, p) => acc + toCents(p.amount), 0);
  return Math.max(0, paid - toCents(input.totals.total));
}

export function totalsDivision(ctx: DanfeContext): void {
  const { layout, theme, input } = ctx;
  const body: TextStyle = { size: theme.size.body };
  const strong: TextStyle = { size: theme.size.heading, font: 'Helvetica-Bold' };
  const t = input.totals;
  layout.rule(theme.rule);
  layout.pair('Qtde. total de itens', String(input.items.length), body);
  layout.pair('Valor total R$', formatMoney(t.products), body);
  if (toCents(t.discount) > 0) layout.pair('Descontos R$', `-${formatMoney(t.discount)}`, body);
  if (toCents(t.additions) > 0) layout.pair('Acréscimos R$', formatMoney(t.additions), body);
  layout.pair('Valor a Pagar R$', formatMoney(t.total), { ...strong, color: theme.accent }, strong);

  layout.gap(2);
  const heading: TextStyle = { size: theme.size.body, font: 'Helvetica-Bold', color: theme.accent };
  layout.pair('FORMA PAGAMENTO', 'VALOR PAGO R$', heading);
  for (const p of input.payments) layout.pair(paymentName(p.method, p.description), formatMoney(p.amount), body);
  layout.pair('Troco R$', formatCents(changeCents(ctx)), body);
}
