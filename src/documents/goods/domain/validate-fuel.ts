import { ANP_GLP, anpDescription, FUEL_CONSUMER_CFOPS } from '../../../fiscal/layout/anp-products.js';
import { checkNumber, checkPattern, checkText, fail, OPTIONAL_MONEY, OPTIONAL_PERCENT, type Errors, type NumberRule } from '../../../fiscal/layout/field-rules.js';
import { toCents, toScaled } from '../../../kernel/decimal.js';
import { cideAmountCents, type FuelInput } from './fuel-item.js';

// The checks of items[].fuel (prod/comb), from the MOC 7.0 Anexo I rules of group LA and I13-20
// (assets/fiscal/rules/moc-anexo-i.json) and the XSD types of the group; docs/fiscal/fuel.md.

const UFS = new Set(['AC', 'AL', 'AM', 'AP', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MG', 'MS', 'MT', 'PA', 'PB', 'PE', 'PI', 'PR', 'RJ', 'RN', 'RO', 'RR', 'RS', 'SC', 'SE', 'SP', 'TO', 'EX']);
/** TDec_1204temperatura / TDec_1204v: 12 integer digits, 4 decimals. */
const QUANTITY_4: NumberRule = { places: 4, sign: 'non-negative', max: 999_999_999_999.9999 };
/** TDec_1104: 11 integer digits, 4 decimals. */
const RATE_4: NumberRule = { places: 4, sign: 'non-negative', max: 99_999_999_999.9999 };
/** TDec_1203: the encerrante readings, 12 integer digits, 3 decimals. */
const READING: NumberRule = { places: 3, sign: 'non-negative', max: 999_999_999_999.999 };

export interface FuelItemContext {
  model: 55 | 65;
  cfop: string;
  unit: string;
}

/** Pushes the errors of one item's fuel group; `at` is the item's path (items[i]). */
export function checkFuel(errors: Errors, at: string, f: FuelInput, ctx: FuelItemContext): void {
  const p = `${at}.fuel`;
  const codeShaped = checkPattern(errors, `${p}.anp_code`, f.anp_code, /^[0-9]{9}$/, 'must be the 9-digit ANP product code (cProdANP)');
  // LA02-10 (761) is the authority's: the gateway holds a partial ANP list (docs/fiscal/fuel.md), which fills descANP but
  // may lack a real code, so a code it does not know is sent with the description the sale gives.
  if (codeShaped && f.anp_description === undefined && anpDescription(f.anp_code) === null) {
    fail(errors, `${p}.anp_description`, 'is required for this ANP code: the list the gateway holds has no description for it (descANP)');
  }
  checkText(errors, `${p}.anp_description`, f.anp_description, 2, 95, false);
  const glp = f.anp_code === ANP_GLP;
  const shares = [f.glp_percent, f.natural_gas_national_percent, f.natural_gas_imported_percent];
  const names = ['glp_percent', 'natural_gas_national_percent', 'natural_gas_imported_percent'];
  const sharesOk = shares.every((v, i) => checkNumber(errors, `${p}.${names[i]}`, v, OPTIONAL_PERCENT));
  if (!glp && shares.some((v) => v !== undefined)) {
    fail(errors, `${p}.glp_percent`, 'the GLP and natural gas shares (pGLP, pGNn, pGNi) are only for GLP, ANP code 210203001 (MOC LA03c-10, 461)', 'LA03c-10');
  } else if (glp && sharesOk) {
    const sum = shares.reduce<bigint>((a, v) => a + (v === undefined ? 0n : toScaled(v, 4)), 0n);
    if (sum !== 1_000_000n) fail(errors, `${p}.glp_percent`, 'with natural_gas_national_percent and natural_gas_imported_percent must add up to 100 for GLP (MOC LA03c-20, 855)', 'LA03c-20');
  }
  if (glp && ctx.unit.toLowerCase() !== 'kg') {
    fail(errors, `${at}.unit`, 'must be kg for GLP (ANP code 210203001): the taxable unit of GLP is the kilogram (MOC I13-20, 854)', 'I13-20');
  }
  checkNumber(errors, `${p}.starting_value`, f.starting_value, OPTIONAL_MONEY);
  if (glp && ctx.model === 55 && f.starting_value === undefined) {
    fail(errors, `${p}.starting_value`, 'is required for GLP in an NF-e (vPart, MOC LA03d-10, 856)', 'LA03d-10');
  }
  if (checkNumber(errors, `${p}.temperature_quantity`, f.temperature_quantity, { ...QUANTITY_4, required: false }) && f.temperature_quantity === 0) {
    fail(errors, `${p}.temperature_quantity`, 'must be greater than zero');
  }
  if (typeof f.uf_cons !== 'string' || !UFS.has(f.uf_cons)) fail(errors, `${p}.uf_cons`, 'must be a two-letter Brazilian state, or EX for consumption abroad (UFCons)');
  if (f.cide) {
    const baseOk = checkNumber(errors, `${p}.cide.base_quantity`, f.cide.base_quantity, QUANTITY_4);
    const rateOk = checkNumber(errors, `${p}.cide.rate_per_unit`, f.cide.rate_per_unit, RATE_4);
    if (checkNumber(errors, `${p}.cide.amount`, f.cide.amount, OPTIONAL_MONEY) && baseOk && rateOk) {
      const due = cideAmountCents(f.cide.base_quantity, f.cide.rate_per_unit);
      if (toCents(f.cide.amount!) !== due) fail(errors, `${p}.cide.amount`, `must be base_quantity x rate_per_unit rounded to cents (${(due / 100).toFixed(2)}), or be left out`);
    }
  }
  if (f.pump_reading) checkPumpReading(errors, `${p}.pump_reading`, f.pump_reading, ctx);
  if (checkNumber(errors, `${p}.biodiesel_percent`, f.biodiesel_percent, OPTIONAL_PERCENT) && f.biodiesel_percent === 0) {
    fail(errors, `${p}.biodiesel_percent`, 'must be greater than zero; leave it out for a product without biodiesel');
  }
}

function checkPumpReading(errors: Errors, at: string, r: NonNullable<FuelInput['pump_reading']>, ctx: FuelItemContext): void {
  if (ctx.model === 55 && !FUEL_CONSUMER_CFOPS.has(ctx.cfop)) {
    fail(errors, at, 'is only for a fuel sale to a final consumer in an NF-e, CFOP 5656 or 5667 (MOC LA11-20, 379)', 'LA11-20');
  }
  const startOk = checkNumber(errors, `${at}.start`, r.start, READING);
  const endOk = checkNumber(errors, `${at}.end`, r.end, READING);
  if (startOk && endOk && toScaled(r.end, 3) <= toScaled(r.start, 3)) {
    fail(errors, `${at}.end`, 'must be greater than start: the totalizer only goes up; when it rolls over, end this item at the last reading and start a new item from zero (MOC LA16-10, 380)', 'LA16-10');
  }
}
