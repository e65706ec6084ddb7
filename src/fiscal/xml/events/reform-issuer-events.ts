// The other NT 2025.002-RTC events the issuer sends about its own NF-e (NT 8.3, 8.15, 8.17, 8.18;
// docs/fiscal/reform-events.md), beside 112150 (delivery-forecast-event.ts). Each detEvento is
// descEvento (one accented value), cOrgaoAutor (TCodUfIBGE), tpAutor (only "1" = empresa emitente),
// verAplic (TVerAplic), then its own part, in the element order of its XSD in
// assets/fiscal/schemas/PL_010_V1.30:
// - 112110 (e112110_v1.00.xsd): indQuitacao, only "1";
// - 112120 (e112120_v1.00.xsd, shipped as "e112120_v1.00 .xsd"): gConsumo 1-990, attribute nItem, vIBS,
//   vCBS, gControleEstoque(qtde, unidade);
// - 112130 (e112130_v1.00.xsd): gPerecimento 1-990, attribute nItem, vIBS, vCBS,
//   gControleEstoque(qPerecimento, uPerecimento, vIBS, vCBS) - the last two the acquisitions' credit to reverse;
// - 112140 (e112140_v1.00.xsd): gItemNaoFornecido 1-990, attribute nItem, vIBS, vCBS,
//   gControleEstoque(qNaoFornecida, uNaoFornecida).
// Every item group is unique by nItem (xs:unique pk_nItem). Values are TDec_1302 (2 decimals),
// quantities TDec_1104 (4 decimals), units TString of 1-6 characters, nItem TnItem (1-990).
import { el, leaf } from '../xml-text.js';
import type { SigningKey } from '../signature/sign.js';
import { signEvent, type SignedEvent } from './event-envelope.js';
import { deliveryForecastProblems, type DeliveryForecastInput } from './delivery-forecast-event.js';
import { EventInputError, type EventFieldError } from './event-input.js';

export const FULL_PAYMENT_TP_EVENTO = '112110';
export const IMPORT_NOT_EXEMPTED_TP_EVENTO = '112120';
export const SUPPLIER_TRANSPORT_LOSS_TP_EVENTO = '112130';
export const PREPAID_NOT_SUPPLIED_TP_EVENTO = '112140';

/** descEvento: the single value each XSD enumerates (accented). */
export const REFORM_ISSUER_EVENT_DESC: Readonly<Record<string, string>> = {
  [FULL_PAYMENT_TP_EVENTO]: 'Informação de efetivo pagamento integral para liberar crédito presumido do adquirente',
  [IMPORT_NOT_EXEMPTED_TP_EVENTO]: 'Importação em ALC/ZFM não convertida em isenção',
  [SUPPLIER_TRANSPORT_LOSS_TP_EVENTO]: 'Perecimento, perda, roubo ou furto durante o transporte contratado pelo fornecedor',
  [PREPAID_NOT_SUPPLIED_TP_EVENTO]: 'Fornecimento não realizado com pagamento antecipado',
};

/** One item of 112120/112130/112140. Amounts in reais (2 decimals), quantity with up to 4 decimals. */
export interface ReformEventItem {
  nItem: number;
  vIBS: number;
  vCBS: number;
  quantity: number;
  unit: string;
  /** 112130 only: the credit on the acquisitions to reverse for this quantity (gControleEstoque vIBS/vCBS). */
  creditReversal?: { vIBS: number; vCBS: number };
}

type Head = Omit<DeliveryForecastInput, 'dPrevEntrega'>;
export type ReformIssuerEventInput =
  | (Head & { tpEvento: typeof FULL_PAYMENT_TP_EVENTO })
  | (Head & { tpEvento: typeof IMPORT_NOT_EXEMPTED_TP_EVENTO | typeof SUPPLIER_TRANSPORT_LOSS_TP_EVENTO | typeof PREPAID_NOT_SUPPLIED_TP_EVENTO; items: ReformEventItem[] });

/** Item groups per event: group name and the quantity/unit element names (XSD). */
const ITEM_LAYOUT: Readonly<Record<string, { group: string; qty: string; unit: string }>> = {
  [IMPORT_NOT_EXEMPTED_TP_EVENTO]: { group: 'gConsumo', qty: 'qtde', unit: 'unidade' },
  [SUPPLIER_TRANSPORT_LOSS_TP_EVENTO]: { group: 'gPerecimento', qty: 'qPerecimento', unit: 'uPerecimento' },
  [PREPAID_NOT_SUPPLIED_TP_EVENTO]: { group: 'gItemNaoFornecido', qty: 'qNaoFornecida', unit: 'uNaoFornecida' },
};

/** At most `decimals` decimal places, not negative, at most `intDigits` digits before the point (TDec_1302: 13.2, TDec_1104: 11.4). */
export function isLayoutDecimal(value: unknown, intDigits: number, decimals: number): value is number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value >= 10 ** intDigits) return false;
  const scaled = value * 10 ** decimals;
  return Math.abs(scaled - Math.round(scaled)) < 1e-6;
}

/** TString 1-6: Latin-1 printable, no blank at either end. */
const isUnit = (u: unknown) => typeof u === 'string' && /^[!-ÿ]([ -ÿ]{0,4}[!-ÿ])?$/.test(u);

/** Fields named `items[i].field` (the layout's names: nItem, vIBS, vCBS, quantity, unit, creditReversal.vIBS...). */
export function reformIssuerEventProblems(input: ReformIssuerEventInput): EventFieldError[] {
  const errors = deliveryForecastProblems({ ...input, dPrevEntrega: '2026-01-01' });
  if (input.tpEvento === FULL_PAYMENT_TP_EVENTO) return errors;
  const items = input.items;
  if (!Array.isArray(items) || items.length < 1 || items.length > 990) {
    errors.push({ field: 'items', message: 'must list 1 to 990 items' });
    return errors;
  }
  const seen = new Set<number>();
  items.forEach((it, i) => {
    const at = (f: string) => `items[${i}].${f}`;
    if (!Number.isInteger(it.nItem) || it.nItem < 1 || it.nItem > 990) errors.push({ field: at('nItem'), message: 'must be an item number from 1 to 990' });
    else if (seen.has(it.nItem)) errors.push({ field: at('nItem'), message: 'repeats an item already listed' });
    seen.add(it.nItem);
    for (const f of ['vIBS', 'vCBS'] as const) {
      if (!isLayoutDecimal(it[f], 13, 2)) errors.push({ field: at(f), message: 'must be an amount of at least 0 with at most 2 decimals' });
    }
    if (!isLayoutDecimal(it.quantity, 11, 4)) errors.push({ field: at('quantity'), message: 'must be a quantity of at least 0 with at most 4 decimals' });
    if (!isUnit(it.unit)) errors.push({ field: at('unit'), message: 'must have 1 to 6 Latin-1 characters, no blank at either end' });
    if (input.tpEvento === SUPPLIER_TRANSPORT_LOSS_TP_EVENTO) {
      if (!it.creditReversal) errors.push({ field: at('creditReversal'), message: 'is required for this event' });
      else for (const f of ['vIBS', 'vCBS'] as const) {
        if (!isLayoutDecimal(it.creditReversal[f], 13, 2)) errors.push({ field: at(`creditReversal.${f}`), message: 'must be an amount of at least 0 with at most 2 decimals' });
      }
    } else if (it.creditReversal) {
      errors.push({ field: at('creditReversal'), message: 'belongs only to event 112130' });
    }
  });
  return errors;
}

const dec = (v: number, d: number) => v.toFixed(d);

export function buildReformIssuerEvent(input: ReformIssuerEventInput, key: SigningKey): SignedEvent {
  const errors = reformIssuerEventProblems(input);
  if (errors.length > 0) throw new EventInputError(errors);
  let det =
    leaf('descEvento', REFORM_ISSUER_EVENT_DESC[input.tpEvento]!) + leaf('cOrgaoAutor', input.cOrgaoAutor) + leaf('tpAutor', '1') +
    leaf('verAplic', input.verAplic);
  if (input.tpEvento === FULL_PAYMENT_TP_EVENTO) {
    // NT 8.3 P23: indQuitacao must be "1" (effective full payment of the note's operation).
    det += leaf('indQuitacao', '1');
  } else {
    const layout = ITEM_LAYOUT[input.tpEvento]!;
    for (const it of input.items) {
      const credit = it.creditReversal ? leaf('vIBS', dec(it.creditReversal.vIBS, 2)) + leaf('vCBS', dec(it.creditReversal.vCBS, 2)) : '';
      const stock = el('gControleEstoque', leaf(layout.qty, dec(it.quantity, 4)) + leaf(layout.unit, it.unit) + credit);
      det += el(layout.group, leaf('vIBS', dec(it.vIBS, 2)) + leaf('vCBS', dec(it.vCBS, 2)) + stock, [['nItem', String(it.nItem)]]);
    }
  }
  return signEvent(input, input.tpEvento, det, key);
}
