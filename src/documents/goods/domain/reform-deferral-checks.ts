import { checkNumber, fail, type Errors } from '../../../fiscal/layout/field-rules.js';
import { classificationOn, classificationVersions, cstEntry, type ClassEntry, type CstEntry, type ReformTables } from '../../../fiscal/reform/reform-tables.js';
import { toScaled } from '../../../kernel/decimal.js';
import type { RegularPlan } from './reform-deferral.js';
import type { SaleItem } from './sale-item.js';

// What a request must say for the deferral (gDif) and the regular taxation (gTribRegular) groups, refused
// first with a 422 naming the field and the NT 2025.002-RTC rule the authority would break
// (docs/fiscal/tax-reform.md, "Deferral" and "Suspension"):
// - reform.deferral_rate (pDif): required when the CST's ind_gDif is 1 (UB22-20, cStat 1030), refused when
//   it is 0 (UB22-10, cStat 1029); more than 0 and at most 100;
// - reform.regular_taxation: required when the cClassTrib's ind_gTribRegular is 1 (UB68-10, cStat 1065),
//   refused when it is 0 (UB68-11, cStat 1114); its CST must exist (UB69-10, cStat 1066) and its cClassTrib
//   exist on the date (UB70-10, cStat 1067) and belong to that CST. The gateway computes the regular rates
//   from a CST with gIBSCBS and no other group (000, 200 ...), so it refuses one it cannot compute.

const DEFERRAL_RATE = { places: 4, sign: 'positive', max: 100, required: false } as const;

type Reform = NonNullable<SaleItem['reform']>;

/** The deferral percentage against the CST's ind_gDif. */
export function checkDeferral(errors: Errors, at: string, reform: Reform, cst: CstEntry): void {
  const field = `${at}.reform.deferral_rate`;
  if (reform.deferral_rate === undefined) {
    if (cst.indicators.ind_gDif) fail(errors, field, `is required with CST ${cst.cst} (${cst.description}): its indicator ind_gDif is 1 and the authority refuses the item without gDif (NT 2025.002-RTC UB22-20, cStat 1030)`, 'UB22-20');
    return;
  }
  if (!cst.indicators.ind_gDif) {
    fail(errors, field, `is not used with CST ${cst.cst}: its indicator ind_gDif is 0, which forbids gDif (NT 2025.002-RTC UB22-10, cStat 1029); deferral is CST 510 or 515`, 'UB22-10');
    return;
  }
  checkNumber(errors, field, reform.deferral_rate, DEFERRAL_RATE);
}

const reduces = (c: CstEntry) => c.indicators.ind_gRed;
const computable = (c: CstEntry) =>
  c.indicators.ind_gIBSCBS && !c.indicators.ind_gDif && !c.indicators.ind_gIBSCBSMono && !c.indicators.ind_gTransfCred && !c.indicators.ind_gCredPresIBSZFM && !c.indicators.ind_gAjusteCompet && !c.indicators.ind_RedutorBC;

/**
 * The regular taxation against the cClassTrib's ind_gTribRegular; returns the regular plan (with the regular
 * class's reduction when its CST reduces the rates) or undefined (nothing to write, or errors).
 */
export function checkRegularTaxation(errors: Errors, at: string, reform: Reform, cls: ClassEntry, t: ReformTables, date: string): RegularPlan | undefined {
  const field = `${at}.reform.regular_taxation`;
  const sent = reform.regular_taxation;
  if (!sent) {
    if (cls.indicators.ind_gTribRegular) {
      fail(errors, field, `is required with cClassTrib ${cls.code} (${cls.name}): its indicator ind_gTribRegular is 1, so the item says how it would be taxed if the condition is not met, e.g. {"cst": "000", "class_code": "000001"} (NT 2025.002-RTC UB68-10, cStat 1065)`, 'UB68-10');
    }
    return undefined;
  }
  if (!cls.indicators.ind_gTribRegular) {
    fail(errors, field, `is not used with cClassTrib ${cls.code}: its indicator ind_gTribRegular is 0, which forbids gTribRegular (NT 2025.002-RTC UB68-11, cStat 1114)`, 'UB68-11');
    return undefined;
  }
  const cst = cstEntry(t, sent.cst);
  if (!cst) {
    fail(errors, `${field}.cst`, `${sent.cst} is not a CST of the IBS/CBS table (NT 2025.002-RTC UB69-10, cStat 1066)`, 'UB69-10');
    return undefined;
  }
  const day = date < '2026-01-01' ? '2026-01-01' : date.slice(0, 10);
  const regular = classificationOn(t, sent.class_code, day);
  if (!regular) {
    const known = classificationVersions(t, sent.class_code).length > 0;
    fail(errors, `${field}.class_code`, `${sent.class_code} is not a cClassTrib ${known ? `in force on ${day}` : 'of the classification table'} (NT 2025.002-RTC UB70-10, cStat 1067)`, 'UB70-10');
    return undefined;
  }
  if (regular.cst !== cst.cst) {
    fail(errors, `${field}.class_code`, `${sent.class_code} belongs to CST ${regular.cst}, not ${cst.cst}`);
    return undefined;
  }
  if (!computable(cst) || regular.indicators.ind_gTribRegular) {
    fail(errors, `${field}.cst`, `CST ${cst.cst} / cClassTrib ${regular.code} is not a taxation this gateway can compute as the regular one: it needs a CST whose only groups are gIBSCBS and gRed (e.g. 000 or 200)`);
    return undefined;
  }
  const plan: RegularPlan = { CST: cst.cst, cClassTrib: regular.code };
  if (reduces(cst)) plan.reduction = { ibs: Number(toScaled(regular.pRedIBS, 4)), cbs: Number(toScaled(regular.pRedCBS, 4)) };
  return plan;
}
