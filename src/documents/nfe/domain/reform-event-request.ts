// POST /v1/nfe/:id/reform-events checked before anything is signed (docs/fiscal/reform-events.md): each field
// the event's XSD (assets/fiscal/schemas/PL_010_V1.30/e112110_v1.00.xsd ... e112150_v1.00.xsd) refuses, or its type does not take,
// is named here; and what NT 2025.002-RTC says of the note each event is about. Pure: the note's XML and
// item numbers come in.
import { fail, type Errors } from '../../../fiscal/layout/field-rules.js';
import { isLayoutDate } from '../../../fiscal/xml/events/delivery-forecast-event.js';
import { isLayoutDecimal } from '../../../fiscal/xml/events/reform-issuer-events.js';
import { textOf } from '../../../fiscal/sefaz/xml-slice.js';

/** tpEvento per type (NT 8.3, 8.15, 8.17, 8.18, 8.19). */
export const REFORM_EVENT_TYPES = {
  delivery_forecast_update: '112150',
  full_payment: '112110',
  import_not_exempted: '112120',
  supplier_transport_loss: '112130',
  prepaid_not_supplied: '112140',
} as const;
export type ReformEventType = keyof typeof REFORM_EVENT_TYPES;
/** The events that list items (gConsumo, gPerecimento, gItemNaoFornecido). */
export const ITEM_EVENTS: ReadonlySet<ReformEventType> = new Set(['import_not_exempted', 'supplier_transport_loss', 'prepaid_not_supplied']);

/** One item of an item event, as the API takes it (amounts in reais). */
export interface ReformEventItemInput {
  item_number: number;
  ibs_amount: number;
  cbs_amount: number;
  quantity: number;
  unit: string;
  /** supplier_transport_loss only: the credit on the acquisitions to reverse (gControleEstoque vIBS/vCBS of e112130). */
  credit_reversal?: { ibs_amount: number; cbs_amount: number };
}
export interface ReformEventInput {
  type: ReformEventType;
  delivery_date?: string;
  items?: ReformEventItemInput[];
}

/** TString of 1-6 characters: Latin-1 printable, no blank at either end. */
const isUnit = (u: unknown) => typeof u === 'string' && /^[!-ÿ]([ -ÿ]{0,4}[!-ÿ])?$/.test(u);

function amount(errors: Errors, field: string, value: unknown): void {
  // TDec_1302: up to 13 digits and 2 decimals.
  if (!isLayoutDecimal(value, 13, 2)) fail(errors, field, 'must be an amount of at least 0 with at most 2 decimals (TDec_1302)');
}

/** The request's own fields: which ones its type takes, and what each event's XSD accepts. */
export function reformEventRequestProblems(input: ReformEventInput): Errors {
  const errors: Errors = [];
  const takesItems = ITEM_EVENTS.has(input.type);
  if (input.type === 'delivery_forecast_update') {
    if (input.delivery_date === undefined) fail(errors, 'delivery_date', 'is required for the type delivery_forecast_update');
    else if (!isLayoutDate(input.delivery_date)) fail(errors, 'delivery_date', 'must be a date AAAA-MM-DD');
  } else if (input.delivery_date !== undefined) {
    fail(errors, 'delivery_date', 'is used only with the type delivery_forecast_update');
  }
  if (!takesItems) {
    if (input.items !== undefined) fail(errors, 'items', 'is used only with the types import_not_exempted, supplier_transport_loss and prepaid_not_supplied');
    return errors;
  }
  const items = input.items;
  if (items === undefined) {
    fail(errors, 'items', 'is required for this type');
    return errors;
  }
  // maxOccurs 990 of gConsumo / gPerecimento / gItemNaoFornecido.
  if (items.length < 1 || items.length > 990) {
    fail(errors, 'items', 'must list 1 to 990 items');
    return errors;
  }
  const seen = new Set<number>();
  items.forEach((it, i) => {
    const at = `items[${i}]`;
    // TnItem 1-990; xs:unique pk_nItem: an item at most once per event.
    if (!Number.isInteger(it.item_number) || it.item_number < 1 || it.item_number > 990) fail(errors, `${at}.item_number`, 'must be an item number from 1 to 990');
    else if (seen.has(it.item_number)) fail(errors, `${at}.item_number`, 'repeats an item already listed in this event');
    seen.add(it.item_number);
    amount(errors, `${at}.ibs_amount`, it.ibs_amount);
    amount(errors, `${at}.cbs_amount`, it.cbs_amount);
    // TDec_1104: up to 11 digits and 4 decimals.
    if (!isLayoutDecimal(it.quantity, 11, 4)) fail(errors, `${at}.quantity`, 'must be a quantity of at least 0 with at most 4 decimals (TDec_1104)');
    if (!isUnit(it.unit)) fail(errors, `${at}.unit`, 'must have 1 to 6 Latin-1 characters, no blank at either end');
    if (input.type === 'supplier_transport_loss') {
      // e112130: gControleEstoque carries the credit to reverse (vIBS, vCBS), both required.
      if (!it.credit_reversal) fail(errors, `${at}.credit_reversal`, 'is required for the type supplier_transport_loss');
      else {
        amount(errors, `${at}.credit_reversal.ibs_amount`, it.credit_reversal.ibs_amount);
        amount(errors, `${at}.credit_reversal.cbs_amount`, it.credit_reversal.cbs_amount);
      }
    } else if (it.credit_reversal !== undefined) {
      fail(errors, `${at}.credit_reversal`, 'is used only with the type supplier_transport_loss');
    }
  });
  return errors;
}

/**
 * What the NT says of the note each event is about ("Autor do Evento" of NT 8.15, 8.17, 8.18) and that each
 * nItem is an item of the note (the XSDs: "corresponde ao atributo nItem do elemento det"). The NT gives these
 * no rejection code, so the simulated authority does not enforce them; the gateway refuses them.
 */
export function reformEventNoteProblems(input: ReformEventInput, note: { xml: string; itemNumbers: ReadonlySet<number> }): Errors {
  const errors: Errors = [];
  const ide = (tag: string) => textOf(note.xml, tag);
  // NT 8.17: the supplier's note of an outbound supply (tpNF 1).
  if (input.type === 'supplier_transport_loss' && ide('tpNF') !== '1') fail(errors, 'type', 'applies only to an outbound NF-e (tpNF 1) (NT 2025.002-RTC 8.17)');
  // NT 8.18: the issuer's debit note of type 06 (pagamento antecipado).
  if (input.type === 'prepaid_not_supplied' && !(ide('finNFe') === '6' && ide('tpNFDebito') === '06')) {
    fail(errors, 'type', 'applies only to a debit note of type 06, pagamento antecipado (NT 2025.002-RTC 8.18)');
  }
  // NT 8.15: the import NF-e the acquirer issued (inbound from abroad: tpNF 0, idDest 3).
  if (input.type === 'import_not_exempted' && !(ide('tpNF') === '0' && ide('idDest') === '3')) {
    fail(errors, 'type', 'applies only to an import NF-e, inbound from abroad (NT 2025.002-RTC 8.15)');
  }
  (input.items ?? []).forEach((it, i) => {
    if (!note.itemNumbers.has(it.item_number)) fail(errors, `items[${i}].item_number`, 'is not an item of this NF-e');
  });
  return errors;
}
