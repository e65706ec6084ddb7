import { fail, type Errors } from '../../../fiscal/layout/field-rules.js';
import { classificationOn, cstEntry, ratesOn, type ReformDocument, type ReformTables } from '../../../fiscal/reform/reform-tables.js';
import { reformTablesInForce } from '../../../fiscal/reform/reform-tables-in-force.js';
import { EXPORT_CST, isExportCfop } from './item-taxes.js';
import { checkDeferral, checkRegularTaxation } from './reform-deferral-checks.js';
import type { SaleItem } from './sale-item.js';

// The gateway refuses first (422 naming the field and the rule) what the authority would refuse under the
// NT 2025.002-RTC rules on an item's IBSCBS group (docs/fiscal/reform-rules.md), reading the official tables
// (fiscal/reform): the CST and cClassTrib must exist and agree, be allowed in the document, and the CST's
// indicators decide which groups go with it. Pure: the caller hands in the tables and, when it knows it, the
// note's date (for the rates of the year, UB18-10, UB37-10, UB56-10).

export interface ReformRuleInput {
  tables: ReformTables;
  document: ReformDocument;
  /** The note's local issue date, YYYY-MM-DD, when known: the rates sent are checked against it. */
  date: string;
  /** The date is the note's (the rates sent are checked) or only the day of the request. */
  dateIsIssue?: boolean;
  /** The CST the item gets when the client sends none (000, or 410 for an export). */
  defaultCst: string;
}

const RATES = [
  ['ibs_state_rate', 'ibsState', 'UB18-10', 'pIBSUF'],
  ['ibs_municipal_rate', 'ibsMunicipal', 'UB37-10', 'pIBSMun'],
  ['cbs_rate', 'cbs', 'UB56-10', 'pCBS'],
] as const;

/** Adds the errors of the item's `reform` under `at` (e.g. items[0]). */
export function validateReformRules(errors: Errors, at: string, item: SaleItem, input: ReformRuleInput): void {
  const reform = item.reform;
  if (!reform) return;
  const has = (field: string) => errors.some((e) => e.field === field);
  const cstField = `${at}.reform.cst`;
  const codeField = `${at}.reform.class_code`;
  if (has(cstField) || has(codeField)) return;
  const cst = reform.cst ?? input.defaultCst;
  const entry = cstEntry(input.tables, cst);
  if (!entry) {
    fail(errors, cstField, `${cst} is not an IBS/CBS CST of the official table (NT 2025.002 UB13-10, cStat 1020)`, 'UB13-10');
    return;
  }
  const i = entry.indicators;
  // gTransfCred (CST 800) is written with reform.credit_transfer (reform-credit-transfer.ts checks it).
  const unwritable = i.ind_gIBSCBSMono ? ['gIBSCBSMono', 'UB13-40', 1116] : i.ind_gTransfCred && !reform.credit_transfer ? ['gTransfCred', 'UB13-45', 1132] : null;
  if (unwritable) {
    fail(errors, cstField, `CST ${cst} requires the group ${unwritable[0]}, which this API does not write (NT 2025.002 ${unwritable[1]}, cStat ${unwritable[2]})`, unwritable[1] as string);
    return;
  }
  // gDif by the CST's ind_gDif (UB22-10, UB22-20), gTribRegular by the class's ind_gTribRegular (UB68-10 ... UB70-10).
  checkDeferral(errors, at, reform, entry);
  const ownClass = classificationOn(input.tables, reform.class_code ?? (cst === '000' ? '000001' : ''), input.date);
  if (ownClass && ownClass.cst === cst) checkRegularTaxation(errors, at, reform, ownClass, input.tables, input.date);
  if (reform.class_code !== undefined) {
    const cls = classificationOn(input.tables, reform.class_code, input.date);
    if (!cls) fail(errors, codeField, `${reform.class_code} is not a cClassTrib in force on ${input.date} (NT 2025.002 UB14-10, cStat 1023)`, 'UB14-10');
    else if (cls.cst !== cst) fail(errors, codeField, `${reform.class_code} belongs to CST ${cls.cst}, not ${cst} (NT 2025.002 UB14-20, cStat 1024)`, 'UB14-20');
    else if (!cls.documents.includes(input.document)) {
      fail(errors, codeField, `${reform.class_code} is not allowed in ${input.document === 'nfce' ? 'an NFC-e' : 'an NF-e'} (NT 2025.002 UB14-25, cStat 1025)`, 'UB14-25');
    } else if (i.ind_gRed && reform.rate_reduction !== undefined && !has(`${at}.reform.rate_reduction`)) {
      // UB27-10, UB46-10, UB65-10: pRedAliq is the table's; this API writes one reduction for the three spheres.
      const sent = Number(reform.rate_reduction);
      if (sent !== cls.pRedIBS || sent !== cls.pRedCBS) {
        const due = cls.pRedIBS === cls.pRedCBS ? `${cls.pRedIBS}` : `${cls.pRedIBS} for the IBS and ${cls.pRedCBS} for the CBS, which this API cannot write as one rate_reduction`;
        fail(errors, `${at}.reform.rate_reduction`, `must be the reduction of cClassTrib ${reform.class_code}: ${due} (NT 2025.002 UB27-10, cStat 1034; UB65-10, 1063)`, sent !== cls.pRedIBS ? 'UB27-10' : 'UB65-10');
      }
    }
  }
  if (!i.ind_gIBSCBS) return; // rates with a CST without gIBSCBS: validate-item.ts refuses them (UB13-20)
  // ind_gRed 1 without rate_reduction: the gateway writes gRed with the cClassTrib's pRedIBS / pRedCBS
  // (reform-class-checks.ts), so UB26-20 (cStat 1033) cannot happen.
  if (!i.ind_gRed && reform.rate_reduction !== undefined && !has(`${at}.reform.rate_reduction`)) {
    fail(errors, `${at}.reform.rate_reduction`, `is not used with CST ${cst}: its indicator ind_gRed forbids gRed (NT 2025.002 UB26-10, cStat 1032)`, 'UB26-10');
  }
  if (!input.dateIsIssue) return;
  const period = ratesOn(input.tables, input.date);
  for (const [field, tax, rule, tag] of RATES) {
    const sent = reform[field];
    const due = period?.[tax];
    if (sent === undefined || due === null || due === undefined || has(`${at}.reform.${field}`) || Number(sent) === due) continue;
    // A zero rate may be a classification of regular taxation (UB18-10 exception): the class's indicator says.
    const regular = reform.class_code !== undefined && classificationOn(input.tables, reform.class_code, input.date)?.indicators.ind_gTribRegular === true;
    if (regular && Number(sent) === 0) continue;
    fail(errors, `${at}.reform.${field}`, `must be ${due} (${tag}) for a note dated ${input.date.slice(0, 4)} (NT 2025.002 ${rule}; ${period!.source})`, rule);
  }
}

/**
 * The hook of validate-item.ts: the tables in force, the document by the item rules' name for it, the day of the
 * request for the classification's validity (the note's date is not known there, so the rates are not checked
 * here), and the default CST of item-taxes.ts.
 */
export function checkReformRules(errors: Errors, at: string, item: SaleItem, document: string): void {
  if (!item.reform) return;
  const defaultCst = typeof item.cfop === 'string' && isExportCfop(item.cfop) ? EXPORT_CST : '000';
  validateReformRules(errors, at, item, { tables: reformTablesInForce(), document: document === 'an NFC-e' ? 'nfce' : 'nfe', date: new Date().toISOString().slice(0, 10), defaultCst });
}
