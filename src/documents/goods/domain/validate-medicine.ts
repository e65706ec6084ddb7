import { checkNumber, checkPattern, checkText, fail, type Errors, type NumberRule } from '../../../fiscal/layout/field-rules.js';
import type { BatchInput, MedicineInput } from './medicine-item.js';

// The checks of items[].medicine (prod/med) and items[].batches (prod/rastro): the XSD types of the two groups
// (leiauteNFe_v4.00.xsd) and the three MOC 7.0 Anexo I rules that name them, I83-10, I84-10 and K01-20 (page 96);
// docs/fiscal/medicines.md. No other rule of the table names these groups: nothing else is refused here.

/** cProdANVISA: the XSD pattern [0-9]{11}|[0-9]{13}|ISENTO. */
const ANVISA_CODE = /^([0-9]{11}|[0-9]{13}|ISENTO)$/;
/** TData of tiposBasico_v4.00.xsd, verbatim: AAAA-MM-DD, years 2000-2099, the days each month has. */
const TDATA = /^((20(([02468][048])|([13579][26]))-02-29)|(20[0-9][0-9])-((((0[1-9])|(1[0-2]))-((0[1-9])|(1\d)|(2[0-8])))|((((0[13578])|(1[02]))-31)|(((0[1,3-9])|(1[0-2]))-(29|30)))))$/;
/** vPMC, TDec_1302: 13 integer digits, 2 decimals, zero allowed. */
const PRICE: NumberRule = { places: 2, sign: 'non-negative', max: 9_999_999_999_999.99 };
/** qLote, TDec_0803v: 8 integer digits, 1 to 3 decimals, zero allowed. */
const LOT_QUANTITY: NumberRule = { places: 3, sign: 'non-negative', max: 99_999_999.999 };
export const MAX_BATCHES = 500;

export interface MedicineItemContext {
  model: 55 | 65;
  /** The item also carries fuel (prod/comb). */
  fuel: boolean;
}

/** Pushes the errors of one item's medicine and batches; `at` is the item's path (items[i]). */
export function checkMedicine(errors: Errors, at: string, medicine: MedicineInput | undefined, batches: readonly BatchInput[] | undefined, ctx: MedicineItemContext): void {
  if (medicine !== undefined) {
    const p = `${at}.medicine`;
    checkPattern(errors, `${p}.anvisa_code`, medicine.anvisa_code, ANVISA_CODE, 'must be the ANVISA registration, 11 or 13 digits, or ISENTO for a medicine exempt from registration (cProdANVISA)');
    checkText(errors, `${p}.exemption_reason`, medicine.exemption_reason, 1, 255, false);
    checkNumber(errors, `${p}.max_consumer_price`, medicine.max_consumer_price, PRICE);
    // leiauteNFe_v4.00.xsd: prod closes with one of veicProd | med | arma | comb | nRECOPI.
    if (ctx.fuel) fail(errors, p, 'cannot go with fuel on the same item: the layout gives an item either the medicine group (med) or the fuel group (comb)');
    // MOC K01-20 (873), model 55 only: med without any rastro.
    if (ctx.model === 55 && (batches === undefined || batches.length === 0)) {
      fail(errors, `${at}.batches`, 'is required with medicine in an NF-e: give at least one batch of the medicine sold (rastro, MOC K01-20, 873)', 'K01-20');
    }
  }
  // The request schema makes batches a list of objects; anything else has been refused before.
  if (!Array.isArray(batches)) return;
  if (batches.length > MAX_BATCHES) fail(errors, `${at}.batches`, `must have at most ${MAX_BATCHES} batches (rastro)`);
  batches.forEach((b, k) => checkBatch(errors, `${at}.batches[${k}]`, b));
}

function checkBatch(errors: Errors, p: string, b: BatchInput): void {
  checkText(errors, `${p}.number`, b.number, 1, 20);
  checkNumber(errors, `${p}.quantity`, b.quantity, LOT_QUANTITY);
  const made = checkPattern(errors, `${p}.manufactured_on`, b.manufactured_on, TDATA, 'must be a date YYYY-MM-DD from 2000-01-01 to 2099-12-31 (the layout type TData)');
  const expires = checkPattern(errors, `${p}.expires_on`, b.expires_on, TDATA, 'must be a date YYYY-MM-DD from 2000-01-01 to 2099-12-31 (the layout type TData)');
  // MOC I84-10 (870): dVal earlier than dFab.
  if (made && expires && b.expires_on < b.manufactured_on) fail(errors, `${p}.expires_on`, 'must not be before manufactured_on (MOC I84-10, 870)', 'I84-10');
  checkText(errors, `${p}.aggregation_code`, b.aggregation_code, 1, 20, false);
}

/**
 * MOC I83-10 (877): dFab later than the day the authority processes the note. `day` is the UTC date when the
 * note is prepared: never before the authority's date anywhere in Brazil, so the gateway is never the stricter
 * (the simulator reads the same UTC date, src/authority-sim/items-rules.ts); no check without it.
 */
export function checkBatchDates(errors: Errors, items: readonly { batches?: readonly BatchInput[] }[], day: string | undefined): void {
  if (day === undefined) return;
  items.forEach((item, i) => {
    if (!Array.isArray(item.batches)) return;
    item.batches.forEach((b, k) => {
      if (typeof b?.manufactured_on === 'string' && TDATA.test(b.manufactured_on) && b.manufactured_on > day) {
        fail(errors, `items[${i}].batches[${k}].manufactured_on`, `must not be after ${day}, the day the authority processes the note (MOC I83-10, 877)`, 'I83-10');
      }
    });
  });
}
