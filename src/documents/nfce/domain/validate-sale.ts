import { computeItems, type ComputedItems, type ComputeOptions } from '../../goods/domain/compute-items.js';
import { formatCents, toCents } from '../../../kernel/decimal.js';
import { checkAddressLines, checkNumber, checkPattern, checkText, fail, OPTIONAL_MONEY, type Errors, type FieldError } from '../../../fiscal/layout/field-rules.js';
import { municipality, ufCode } from '../../../fiscal/layout/ibge.js';
import type { Issuer } from '../../goods/domain/issuer-context.js';
import { changeCapacity, salePayments } from '../../goods/domain/payments.js';
import type { Sale, SaleAddress } from './sale.js';
import { cleanTaxId, isValidCnpj, isValidCpf } from '../../../kernel/tax-id.js';
import { validateItem } from '../../goods/domain/validate-item.js';
import { checkNfceIcmsCodes } from './nfce-icms-codes.js';
import { validatePayment } from '../../goods/domain/validate-payment.js';
import { checkCarrier, freightModeOf } from '../../goods/domain/transport.js';
import { checkNfceCeiling, checkNfceTenders } from './nfce-tender-rules.js';

export type { FieldError } from '../../../fiscal/layout/field-rules.js';

const IDENTIFICATION_CEILING = 1_000_000; // cents

function validateAddress(errors: Errors, at: string, a: SaleAddress, issuer: Issuer): void {
  checkAddressLines(errors, at, a);
  if (!ufCode(a.uf)) return fail(errors, `${at}.uf`, 'must be a two-letter Brazilian state (e.g. SP)');
  // idDest is always 1 in an NFC-e (internal operation, 707): delivery stays in the issuer's state.
  if (a.uf !== issuer.uf) fail(errors, `${at}.uf`, `must be ${issuer.uf}: an NFC-e covers only sales inside the issuer's state`);
  if (checkPattern(errors, `${at}.city_code`, a.city_code, /^[0-9]{7}$/, 'must be the 7-digit IBGE municipality code')) {
    const m = municipality(a.city_code);
    if (!m) fail(errors, `${at}.city_code`, 'is not an IBGE municipality code (MOC E10-10, 274)', 'E10-10');
    else if (m.cUF !== ufCode(a.uf)) fail(errors, `${at}.city_code`, `belongs to another state than ${a.uf}: give a municipality of ${a.uf} (MOC E10-20, 275)`, 'E10-20');
  }
}

function validateConsumer(errors: Errors, sale: Sale, issuer: Issuer): void {
  const c = sale.consumer;
  if (!c) {
    if (sale.home_delivery) fail(errors, 'consumer', 'is required for home delivery (name, CPF or CNPJ and address; MOC E01-20, 787)', 'E01-20');
    return;
  }
  if (c.cpf !== undefined && c.cnpj !== undefined) fail(errors, 'consumer', 'give either cpf or cnpj, not both');
  else if (c.cpf === undefined && c.cnpj === undefined) fail(errors, 'consumer.cpf', 'is required when a consumer is given (or give consumer.cnpj)');
  if (c.cpf !== undefined && !isValidCpf(c.cpf)) fail(errors, 'consumer.cpf', 'is not a valid CPF (11 digits, check digits must match; MOC E03-10, 237)', 'E03-10');
  if (c.cnpj !== undefined && !isValidCnpj(c.cnpj)) fail(errors, 'consumer.cnpj', 'is not a valid CNPJ (14 characters, check digits must match; MOC E02-10, 208)', 'E02-10');
  // MOC E02-20 (220): the consumer of an NFC-e is not its issuer.
  else if (c.cnpj !== undefined && cleanTaxId(c.cnpj) === cleanTaxId(issuer.cnpj)) fail(errors, 'consumer.cnpj', 'is the issuer\'s own CNPJ: an NFC-e is not issued to its issuer (MOC E02-20, 220)', 'E02-20');
  checkText(errors, 'consumer.name', c.name, 2, 60, sale.home_delivery === true);
  checkText(errors, 'consumer.email', c.email, 1, 60, false);
  if (typeof c.email === 'string' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(c.email.trim())) fail(errors, 'consumer.email', 'is not an e-mail address');
  if (c.address) validateAddress(errors, 'consumer.address', c.address, issuer);
  else if (sale.home_delivery) fail(errors, 'consumer.address', 'is required for home delivery (MOC E05-20, 788)', 'E05-20');
}

/** MOC X02-10 (753), X03-10 (754), X03-20 (786): freight and carrier only, and always a carrier, in a home delivery. */
function validateDelivery(errors: Errors, sale: Sale): void {
  const t = sale.transporte;
  if (!t) {
    if (sale.home_delivery) fail(errors, 'transporte.transportadora', 'is required for home delivery: name the carrier (transporte.modalidade and transporte.transportadora; the issuer itself for an own delivery) (MOC X03-20, 786)', 'X03-20');
    return;
  }
  const modFrete = freightModeOf(errors, 'transporte.modalidade', t.modalidade);
  if (!sale.home_delivery) {
    if (modFrete !== undefined && modFrete !== 9) fail(errors, 'transporte.modalidade', 'must be sem_frete unless home_delivery is true: an NFC-e carries freight only in a home delivery (MOC X02-10, 753)', 'X02-10');
    if (t.transportadora !== undefined) fail(errors, 'transporte.transportadora', 'is only given in a home delivery (home_delivery: true) (MOC X03-10, 754)', 'X03-10');
    return;
  }
  if (!t.transportadora || typeof t.transportadora !== 'object') return fail(errors, 'transporte.transportadora', 'is required: the carrier of the delivery (MOC X03-20, 786)', 'X03-20');
  checkCarrier(errors, 'transporte.transportadora', t.transportadora);
}

function validatePayments(errors: Errors, sale: Sale, vNF: number | undefined): void {
  if (sale.payment && sale.payments) return fail(errors, 'payments', 'send either payment or payments, not both');
  const list = salePayments(sale);
  const base = sale.payments ? 'payments' : 'payment';
  if (list.length === 0) return fail(errors, 'payment', 'is required: how the consumer paid (an NFC-e must carry the payment group)');
  if (list.length > 100) return fail(errors, 'payments', 'must have at most 100 entries');
  const before = errors.length;
  list.forEach((p, i) => validatePayment(errors, sale.payments ? `payments[${i}]` : 'payment', p, vNF === 0));
  checkNfceTenders(errors, list, sale.payments !== undefined);
  if (errors.length > before || vNF === undefined) return;
  const paid = list.reduce((acc, p) => acc + toCents(p.amount), 0);
  // 767: sum(vPag) - vTroco must equal vNF; only cash can exceed the total (the excess is change).
  // The answer reads `${field} ${message}`: the message starts with the verb, in the field's number.
  const several = base === 'payments';
  // MOC YA03-10 (865): an NFC-e paid less than vNF.
  if (paid < vNF) fail(errors, base, `${several ? 'add up to' : 'is'} R$ ${formatCents(paid)} but the total is R$ ${formatCents(vNF)}`, 'YA03-10');
  else if (paid - vNF > changeCapacity(list)) {
    fail(
      errors,
      base,
      `${several ? 'exceed' : 'exceeds'} the total R$ ${formatCents(vNF)} by R$ ${formatCents(paid - vNF)}; only cash (dinheiro) can be overpaid and given back as change`,
    );
  }
}

/** A sale either refused with its field errors, or accepted with its items computed (once). */
export type SaleCheck = { ok: false; errors: FieldError[] } | { ok: true; computed: ComputedItems };

/**
 * Everything the authority would reject that can be known locally, as plain-language errors
 * naming the request field. The totals rules (discount, consumer identification, payments) need
 * vNF, so the items are computed here with the document's own options as soon as they are known
 * to be valid, and handed back for the document: a sale is computed once, not once per check.
 */
export function checkSale(sale: Sale, issuer: Issuer, options: Pick<ComputeOptions, 'tpAmb'>): SaleCheck {
  const errors: Errors = [];
  checkText(errors, 'issuer_id', sale.issuer_id, 1, 100);
  checkText(errors, 'external_ref', sale.external_ref, 1, 255);
  checkText(errors, 'additional_info', sale.additional_info, 1, 5000, false);
  checkNumber(errors, 'approximate_taxes', sale.approximate_taxes, OPTIONAL_MONEY);
  const items = Array.isArray(sale.items) ? sale.items : [];
  if (items.length === 0) fail(errors, 'items', 'must have at least one item');
  if (items.length > 990) fail(errors, 'items', 'must have at most 990 items (layout limit of one NFC-e)');
  const values = items.map((item, i) => validateItem(errors, i, item, issuer.crt));
  checkNfceIcmsCodes(errors, items, (i) => !errors.some((e) => e.field === `items[${i}].cst_icms` || e.field === `items[${i}].csosn`));
  const discountOk = sale.discount === undefined || checkNumber(errors, 'discount', sale.discount, OPTIONAL_MONEY);
  let computed: ComputedItems | undefined;
  if (items.length > 0 && discountOk && errors.length === 0) {
    const gross = values.reduce((a: number, v) => a + v!, 0) - items.reduce((a, it) => a + (it.discount ? toCents(it.discount) : 0), 0);
    if (sale.discount !== undefined && toCents(sale.discount) > gross) {
      fail(errors, 'discount', 'is larger than the value of the items after their own discounts');
    } else computed = computeItems(sale, { crt: issuer.crt, ...options });
  }
  // The options change only xProd (tpAmb); the IBS/CBS/IS groups, added when the note is dated, are outside
  // vNF (MOC W16-10): the checks below see the same vNF whatever the document's options are.
  const vNF = computed?.total.vNF;
  validateConsumer(errors, sale, issuer);
  validateDelivery(errors, sale);
  // Ajuste SINIEF 19/16: the consumer must be identified from R$ 10.000,00 (the authority refuses above
  // it: MOC W16-40, 750); UFs may set a lower limit, which only the authority knows, so only the
  // national one is checked here.
  if (vNF !== undefined && vNF >= IDENTIFICATION_CEILING && !sale.consumer) {
    fail(errors, 'consumer.cpf', `is required: sales of R$ 10000.00 or more must identify the consumer (this one is R$ ${formatCents(vNF)}; MOC W16-40, 750)`, 'W16-40');
  }
  // MOC W16-60 (752): above that value the consumer's address (enderDest) is written too.
  if (vNF !== undefined && vNF > IDENTIFICATION_CEILING && sale.consumer && !sale.consumer.address) {
    fail(errors, 'consumer.address', `is required: sales above R$ 10000.00 carry the consumer's address (this one is R$ ${formatCents(vNF)}; MOC W16-60, 752)`, 'W16-60');
  }
  checkNfceCeiling(errors, vNF);
  validatePayments(errors, sale, vNF);
  if (errors.length > 0) return { ok: false, errors };
  // No error means the item and discount checks above passed, so the items were computed.
  return { ok: true, computed: computed! };
}

/** The field errors of checkSale alone (an empty list: prepareNfce accepts the sale). */
export function validateSale(sale: Sale, issuer: Issuer): FieldError[] {
  const checked = checkSale(sale, issuer, { tpAmb: 1 });
  return checked.ok ? [] : checked.errors;
}
