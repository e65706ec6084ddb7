import { Type, type Static } from 'typebox';
import type { IcmsMonoModel } from '../../../fiscal/xml/nfe/mono-model.js';
import { checkNumber, fail, PERCENT, type Errors, type NumberRule } from '../../../fiscal/layout/field-rules.js';
import { mulDivRound, percentOf, toScaled } from '../../../kernel/decimal.js';

// items[].icms_mono: the monophase ICMS on fuels, CST 02, 15, 53 and 61 (LC 192/2022, Convênio ICMS 199/2022,
// layout of NT 2023.001; docs/fiscal/icms-monophase.md). The ICMS is an amount per unit (ad rem), not a percent.

/** The monophase CSTs (Ajuste SINIEF 1/2023). */
export const MONO_CSTS: ReadonlySet<string> = new Set(['02', '15', '53', '61']);

const quantity = (description: string) =>
  Type.Optional(Type.Number({ description: `${description} Default the item quantity; > 0, at most 4 decimals.`, examples: [40] }));
const adRem = (description: string) => Type.Number({ description: `${description} Reais per unit, > 0, at most 4 decimals.`, examples: [1.47] });

export const IcmsMonoSchema = Type.Object(
  {
    quantity: quantity('qBCMono (CST 02, 15, 53) or qBCMonoRet (CST 61): the quantity taxed, in the unit the ad rem rate is set for.'),
    ad_rem_rate: adRem('adRemICMS (CST 02, 15, 53) or adRemICMSRet (CST 61): the ad rem rate of the Convênio in force on the date.'),
    retention: Type.Optional(
      Type.Object(
        {
          quantity: quantity('qBCMonoReten: the quantity subject to retention.'),
          ad_rem_rate: adRem('adRemICMSReten: the ad rem rate of the retention.'),
        },
        { additionalProperties: false, description: 'CST 15 only, and required there: the ICMS the issuer retains (vICMSMonoReten = quantity x ad_rem_rate).' },
      ),
    ),
    ad_rem_reduction: Type.Optional(
      Type.Object(
        {
          rate: Type.Number({ description: 'pRedAdRem: percent of reduction of the ad rem rate, 0-100, at most 2 decimals.', examples: [10] }),
          reason: Type.Union([Type.Literal(1), Type.Literal(9)], { description: 'motRedAdRem: 1 public passenger transport, 9 other.' }),
        },
        { additionalProperties: false, description: 'CST 15 only: the reduction of the ad rem rate and its reason (both or neither). The rates sent are the ones applied.' },
      ),
    ),
    deferral_rate: Type.Optional(Type.Number({ description: 'pDif: percent of the operation\'s monophase ICMS deferred; CST 53 only, and required there.', examples: [100] })),
  },
  { additionalProperties: false, description: 'Monophase ICMS on fuels (CST 02, 15, 53, 61 in an NF-e; an NFC-e takes CST 61 only, NT 2023.001 N12-30). vICMSMono = quantity x ad_rem_rate, rounded to cents; CST 15 retention of a diesel B code of N41-20 at a third.' },
);

export type IcmsMonoInput = Static<typeof IcmsMonoSchema>;

/** TDec_1104v: 11 integer digits, 4 decimals. */
const QUANTITY: NumberRule = { places: 4, sign: 'positive', max: 99_999_999_999.9999, required: false };
/** TDec_0302a04: 3 integer digits, 2 to 4 decimals. */
const AD_REM: NumberRule = { places: 4, sign: 'positive', max: 999.9999 };
/** TDec_0302Max100. */
const REDUCTION: NumberRule = { places: 2, sign: 'non-negative', max: 100 };

const q4 = (value: number | undefined, fallback: number): bigint => toScaled(value ?? fallback, 4);
const r4 = (value: number): number => Number(toScaled(value, 4));
/** quantity (scale 4) x ad rem rate (scale 4) rounded to cents. */
export const adRemValue = (q: bigint, adRem4: number): number => Number(mulDivRound(q, BigInt(adRem4), 1_000_000n));

function part(quantityValue: number | undefined, itemQuantity: number, rate: number) {
  const q = q4(quantityValue, itemQuantity);
  const adRem4 = r4(rate);
  return { q, adRem: adRem4, value: adRemValue(q, adRem4) };
}

/**
 * NT 2023.001 N41-20 (964): for these diesel B codes the retention of CST 15 is a third of the product,
 * qBCMonoReten x adRemICMSReten x 0.3333 (the refinery's diesel B sale, NT 2023.001 v1.60 section 7).
 */
export const THIRD_RETENTION_ANP_CODES: ReadonlySet<string> = new Set(['420102004', '420102005', '420105001', '820101003', '820101011', '820101012', '820101013', '820101026', '820101027', '820101032', '820101033', '820101034']);

function thirdPart(quantityValue: number | undefined, itemQuantity: number, rate: number) {
  const q = q4(quantityValue, itemQuantity);
  const adRem4 = r4(rate);
  return { q, adRem: adRem4, value: Number(mulDivRound(q * 3_333n, BigInt(adRem4), 10_000_000_000n)) };
}

/** The model of a validated item of CST 02/15/53/61. */
export function icmsMonoOf(code: string, input: IcmsMonoInput, itemQuantity: number, anpCode?: string): IcmsMonoModel {
  if (code === '61') return { ret: part(input.quantity, itemQuantity, input.ad_rem_rate) };
  const own = part(input.quantity, itemQuantity, input.ad_rem_rate);
  const model: IcmsMonoModel = { own };
  if (code === '15' && input.retention) {
    const retention = anpCode !== undefined && THIRD_RETENTION_ANP_CODES.has(anpCode) ? thirdPart : part;
    model.reten = retention(input.retention.quantity, itemQuantity, input.retention.ad_rem_rate);
  }
  if (code === '15' && input.ad_rem_reduction) model.reduction = { pRedAdRem: r4(input.ad_rem_reduction.rate), motRedAdRem: input.ad_rem_reduction.reason };
  if (code === '53') {
    // As CST 51's deferral (MOC N16a-N17): the operation's ICMS, the deferred share of it, and what is left to pay.
    const vICMSMonoOp = own.value;
    const pDif = r4(input.deferral_rate ?? 0);
    const vICMSMonoDif = percentOf(vICMSMonoOp, pDif);
    model.dif = { vICMSMonoOp, pDif, vICMSMonoDif };
    model.own = { ...own, value: vICMSMonoOp - vICMSMonoDif };
  }
  return model;
}

/** The 422 checks of items[i].icms_mono against the item's CST; `at` is the item's path. */
export function checkIcmsMono(errors: Errors, at: string, code: string, input: IcmsMonoInput | undefined, hasFuel: boolean): void {
  const mono = MONO_CSTS.has(code);
  const p = `${at}.icms_mono`;
  if (!mono) {
    if (input !== undefined) fail(errors, p, `is only used with the monophase CSTs 02, 15, 53 or 61, not ${code}`);
    return;
  }
  // The monophase groups exist for the fuels of LC 192/2022; the gateway asks for the fuel group (cProdANP) with them.
  if (!hasFuel) fail(errors, `${at}.fuel`, `is required with CST ${code} (monophase ICMS on fuels): give the ANP product code of the fuel`);
  if (input === undefined) return fail(errors, p, `is required with CST ${code}: give at least icms_mono.ad_rem_rate (the ad rem rate of the date)`);
  checkNumber(errors, `${p}.quantity`, input.quantity, QUANTITY);
  checkNumber(errors, `${p}.ad_rem_rate`, input.ad_rem_rate, AD_REM);
  if (code === '15') {
    if (input.retention === undefined) fail(errors, `${p}.retention`, 'is required with CST 15: give retention.ad_rem_rate (adRemICMSReten)');
    else {
      checkNumber(errors, `${p}.retention.quantity`, input.retention.quantity, QUANTITY);
      checkNumber(errors, `${p}.retention.ad_rem_rate`, input.retention.ad_rem_rate, AD_REM);
    }
    if (input.ad_rem_reduction !== undefined) checkNumber(errors, `${p}.ad_rem_reduction.rate`, input.ad_rem_reduction.rate, REDUCTION);
  } else {
    if (input.retention !== undefined) fail(errors, `${p}.retention`, `is only used with CST 15, not ${code}`);
    if (input.ad_rem_reduction !== undefined) fail(errors, `${p}.ad_rem_reduction`, `is only used with CST 15, not ${code}`);
  }
  if (code === '53') checkNumber(errors, `${p}.deferral_rate`, input.deferral_rate, PERCENT);
  else if (input.deferral_rate !== undefined) fail(errors, `${p}.deferral_rate`, `is only used with CST 53, not ${code}`);
}
