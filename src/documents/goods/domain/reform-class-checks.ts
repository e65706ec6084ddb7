import { fail, type Errors } from '../../../fiscal/layout/field-rules.js';
import { classificationOn, classificationVersions, cstEntry, type ClassEntry, type ReformDocument, type ReformTables } from '../../../fiscal/reform/reform-tables.js';
import { toScaled } from '../../../kernel/decimal.js';
import type { ReformItemPlan } from './item-taxes.js';
import { checkCreditTransfer } from './reform-credit-transfer.js';
import { checkPresumedCredit } from './reform-presumed-credit.js';
import { checkDeferral, checkRegularTaxation } from './reform-deferral-checks.js';

// Each item's CST and cClassTrib against the official tables (fiscal/reform: Informe Técnico
// 2025.002's CST and cClassTrib tables) on the date the note is prepared for, and the reduction the
// class fixes (docs/fiscal/tax-reform.md, "Classification"):
// - a CST not in the table: NT 2025.002-RTC UB13-10, cStat 1020;
// - a cClassTrib not in the table, or not in force on the date: UB14-10, cStat 1023;
// - a cClassTrib of another CST: UB14-20, cStat 1024;
// - a code the table does not mark for the model (indNFe / indNFCe): refused for that model;
// - a CST whose ind_gRed is 1 carries gRed with the class's pRedIBS / pRedCBS (cStat 1033 without
//   it); a client's rate_reduction must agree with them;
// - a CST whose ind_gDif is 1 (510, 515) takes reform.deferral_rate, a cClassTrib whose ind_gTribRegular
//   is 1 (the CST 550 suspensions) reform.regular_taxation (reform-deferral-checks.ts);
// - credit transfer (gTransfCred, CST 800) and the presumed credit of the operation (gCredPresOper, which
//   ind_gCredPresOper 1 permits and does not require) are checked by reform-credit-transfer.ts and
//   reform-presumed-credit.ts;
// - the groups this gateway does not write yet (monophase, ZFM presumed credit, competence adjustment;
//   the class groups gEstornoCred, gMono*) are refused with a 422 rather than sent without them.

const MODEL_NAMES: Readonly<Record<ReformDocument, string>> = { nfe: 'an NF-e (model 55)', nfce: 'an NFC-e (model 65)', nfse: 'an NFS-e' };

const CST_GROUPS_NOT_WRITTEN = [
  ['ind_gIBSCBSMono', 'monophase (gIBSCBSMono)'],
  ['ind_gCredPresIBSZFM', 'ZFM presumed credit (gCredPresIBSZFM)'],
  ['ind_gAjusteCompet', 'competence adjustment (gAjusteCompet)'],
] as const;
const CLASS_GROUPS_NOT_WRITTEN = [
  ['ind_gEstornoCred', 'gEstornoCred'],
  ['ind_gMonoPadrao', 'gMonoPadrao'], ['ind_gMonoReten', 'gMonoReten'], ['ind_gMonoRet', 'gMonoRet'], ['ind_gMonoDif', 'gMonoDif'],
] as const;

const FIRST_DAY = '2026-01-01';
const until = (c: ClassEntry): string => (c.validUntil ? `until ${c.validUntil} (exclusive)` : 'open-ended');

function classOf(errors: Errors, at: string, p: ReformItemPlan, t: ReformTables, date: string | undefined): ClassEntry | undefined {
  const versions = classificationVersions(t, p.cClassTrib);
  if (versions.length === 0) {
    fail(errors, `${at}.reform.class_code`, `${p.cClassTrib} is not a cClassTrib of the classification table (NT 2025.002-RTC UB14-10, cStat 1023)`, 'UB14-10');
    return undefined;
  }
  if (date === undefined) return versions[versions.length - 1];
  // The tables start on 01/01/2026; a note dated before (homologation, late 2025) is read as of that day,
  // as its rates are (reform-rates.ts).
  const day = date < FIRST_DAY ? FIRST_DAY : date.slice(0, 10);
  const cls = classificationOn(t, p.cClassTrib, day);
  if (!cls) fail(errors, `${at}.reform.class_code`, `${p.cClassTrib} is not in force on ${day} (${versions.map((v) => `from ${v.validFrom} ${until(v)}`).join('; ')}; NT 2025.002-RTC UB14-10, cStat 1023)`, 'UB14-10');
  return cls;
}

/**
 * The plan of each item with the class's reduction, or errors naming the field. date: the issuer's
 * local date the note is prepared on (the latest version of a class is used without it).
 */
export function classifyReform(errors: Errors, plan: readonly ReformItemPlan[], document: ReformDocument, date: string | undefined, t: ReformTables): ReformItemPlan[] {
  return plan.map((p, i) => {
    const at = `items[${i}]`;
    const cst = cstEntry(t, p.CST);
    if (!cst) {
      fail(errors, `${at}.reform.cst`, `${p.CST} is not a CST of the IBS/CBS table (NT 2025.002-RTC UB13-10, cStat 1020)`, 'UB13-10');
      return p;
    }
    const cls = classOf(errors, at, p, t, date);
    if (!cls) return p;
    if (cls.cst !== p.CST) {
      fail(errors, `${at}.reform.class_code`, `${p.cClassTrib} belongs to CST ${cls.cst}, not ${p.CST} (NT 2025.002-RTC UB14-20, cStat 1024)`, 'UB14-20');
      return p;
    }
    if (!cls.documents.includes(document)) {
      const where = cls.documents.filter((d) => d !== 'nfse').map((d) => MODEL_NAMES[d]).join(' or ');
      fail(errors, `${at}.reform.class_code`, `${p.cClassTrib} may not be used in ${MODEL_NAMES[document]}: the cClassTrib table marks it for ${where || 'other documents'} only`);
      return p;
    }
    const missing = [
      ...CST_GROUPS_NOT_WRITTEN.filter(([k]) => cst.indicators[k]).map(([, name]) => name),
      ...CLASS_GROUPS_NOT_WRITTEN.filter(([k]) => cls.indicators[k]).map(([, name]) => name),
    ];
    if (missing.length > 0) {
      fail(errors, `${at}.reform.${cst.indicators.ind_gIBSCBSMono ? 'cst' : 'class_code'}`, `CST ${p.CST} / cClassTrib ${p.cClassTrib} needs ${missing.join(', ')}, which this gateway does not write yet`);
      return p;
    }
    checkCreditTransfer(errors, at, p, cst);
    checkPresumedCredit(errors, at, p, cls, document, date, t);
    const out: ReformItemPlan = { ...p, withGroup: cst.indicators.ind_gIBSCBS };
    delete out.reduction;
    delete out.regular;
    // The request's pDif and regular taxation, as the plan holds them (their format: validate-reform-rules.ts).
    const sent = { deferral_rate: p.deferral === undefined ? undefined : p.deferral / 10_000, regular_taxation: p.regular && { cst: p.regular.CST, class_code: p.regular.cClassTrib } };
    checkDeferral(errors, at, sent, cst);
    const regular = checkRegularTaxation(errors, at, sent, cls, t, date ?? FIRST_DAY);
    if (regular) out.regular = regular;
    if (cst.indicators.ind_gRed) {
      const red = { ibs: Number(toScaled(cls.pRedIBS, 4)), cbs: Number(toScaled(cls.pRedCBS, 4)) };
      if (p.reduction !== undefined && (p.reduction.ibs !== red.ibs || p.reduction.cbs !== red.cbs)) {
        const same = cls.pRedIBS === cls.pRedCBS ? `${cls.pRedIBS}` : `${cls.pRedIBS} for the IBS and ${cls.pRedCBS} for the CBS`;
        fail(errors, `${at}.reform.rate_reduction`, `must be ${same} for cClassTrib ${p.cClassTrib} (its pRedIBS / pRedCBS in the classification table); leave it out to get it`);
      }
      out.reduction = red;
    } else if (p.reduction !== undefined) {
      fail(errors, `${at}.reform.rate_reduction`, `is not used with CST ${p.CST}: only a CST whose codes carry a rate reduction (gRed) takes one, e.g. 200`);
    }
    return out;
  });
}
